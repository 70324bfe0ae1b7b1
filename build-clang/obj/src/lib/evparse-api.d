build-clang/obj/src/lib/evparse-api.o: src/lib/evparse-api.c \
  include/sonde/evparse.h include/sonde/common.h include/sonde/abi.h \
  src/lib/internal.h src/lib/evlist-priv.h

include/sonde/evparse.h:

include/sonde/common.h:

include/sonde/abi.h:

src/lib/internal.h:

src/lib/evlist-priv.h:
