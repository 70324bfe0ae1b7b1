build-clang/obj/src/lib/evparse.o: src/lib/evparse.c \
  include/sonde/evparse.h include/sonde/common.h include/sonde/abi.h \
  include/sonde/pmu.h include/sonde/tracefs.h src/lib/internal.h \
  src/lib/evparse-priv.h src/lib/evlist-priv.h src/lib/sysfs-read.h

include/sonde/evparse.h:

include/sonde/common.h:

include/sonde/abi.h:

include/sonde/pmu.h:

include/sonde/tracefs.h:

src/lib/internal.h:

src/lib/evparse-priv.h:

src/lib/evlist-priv.h:

src/lib/sysfs-read.h:
