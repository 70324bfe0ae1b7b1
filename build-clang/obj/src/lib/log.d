build-clang/obj/src/lib/log.o: src/lib/log.c src/lib/internal.h \
  include/sonde/common.h

src/lib/internal.h:

include/sonde/common.h:
