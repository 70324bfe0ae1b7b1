build-clang/obj/src/lib/attr-print.o: src/lib/attr-print.c \
  include/sonde/evparse.h include/sonde/common.h include/sonde/abi.h \
  src/lib/internal.h

include/sonde/evparse.h:

include/sonde/common.h:

include/sonde/abi.h:

src/lib/internal.h:
