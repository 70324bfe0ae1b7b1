build/obj/src/lib/ring.o: src/lib/ring.c include/sonde/ring.h \
 include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
 src/lib/internal.h
include/sonde/ring.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
src/lib/internal.h:
