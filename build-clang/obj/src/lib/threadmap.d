build-clang/obj/src/lib/threadmap.o: src/lib/threadmap.c src/lib/maps.h \
  include/sonde/cpumap.h include/sonde/common.h \
  include/sonde/threadmap.h src/lib/internal.h

src/lib/maps.h:

include/sonde/cpumap.h:

include/sonde/common.h:

include/sonde/threadmap.h:

src/lib/internal.h:
