build-clang/obj/src/lib/tracefs.o: src/lib/tracefs.c \
  include/sonde/tracefs.h include/sonde/common.h src/lib/internal.h \
  src/lib/sysfs-read.h

include/sonde/tracefs.h:

include/sonde/common.h:

src/lib/internal.h:

src/lib/sysfs-read.h:
