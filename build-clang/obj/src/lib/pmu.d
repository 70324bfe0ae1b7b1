build-clang/obj/src/lib/pmu.o: src/lib/pmu.c include/sonde/pmu.h \
  include/sonde/common.h src/lib/internal.h src/lib/sysfs-read.h

include/sonde/pmu.h:

include/sonde/common.h:

src/lib/internal.h:

src/lib/sysfs-read.h:
