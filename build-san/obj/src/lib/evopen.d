build-san/obj/src/lib/evopen.o: src/lib/evopen.c include/sonde/sys.h \
 include/sonde/common.h include/sonde/abi.h src/lib/evopen.h \
 include/sonde/evopen.h src/lib/internal.h
include/sonde/sys.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/evopen.h:
include/sonde/evopen.h:
src/lib/internal.h:
