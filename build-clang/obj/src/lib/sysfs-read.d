build-clang/obj/src/lib/sysfs-read.o: src/lib/sysfs-read.c \
  src/lib/internal.h include/sonde/common.h src/lib/sysfs-read.h

src/lib/internal.h:

include/sonde/common.h:

src/lib/sysfs-read.h:
