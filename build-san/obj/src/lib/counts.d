build-san/obj/src/lib/counts.o: src/lib/counts.c include/sonde/abi.h \
 include/sonde/counts.h include/sonde/common.h src/lib/internal.h
include/sonde/abi.h:
include/sonde/counts.h:
include/sonde/common.h:
src/lib/internal.h:
