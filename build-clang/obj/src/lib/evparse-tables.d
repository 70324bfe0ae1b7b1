build-clang/obj/src/lib/evparse-tables.o: src/lib/evparse-tables.c \
  src/lib/evparse-priv.h include/sonde/evparse.h include/sonde/common.h \
  include/sonde/abi.h

src/lib/evparse-priv.h:

include/sonde/evparse.h:

include/sonde/common.h:

include/sonde/abi.h:
