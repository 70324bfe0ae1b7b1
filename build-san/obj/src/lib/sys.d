build-san/obj/src/lib/sys.o: src/lib/sys.c include/sonde/sys.h \
 include/sonde/common.h include/sonde/abi.h src/lib/internal.h
include/sonde/sys.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
