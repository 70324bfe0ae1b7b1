build-clang/obj/src/lib/tp-format.o: src/lib/tp-format.c \
  include/sonde/tracefs.h include/sonde/common.h src/lib/internal.h \
  src/lib/sysfs-read.h

include/sonde/tracefs.h:

include/sonde/common.h:

src/lib/internal.h:

src/lib/sysfs-read.h:
