build-clang/obj/src/lib/evopen-error.o: src/lib/evopen-error.c \
  src/lib/evopen.h include/sonde/evopen.h include/sonde/common.h \
  include/sonde/abi.h src/lib/internal.h

src/lib/evopen.h:

include/sonde/evopen.h:

include/sonde/common.h:

include/sonde/abi.h:

src/lib/internal.h:
