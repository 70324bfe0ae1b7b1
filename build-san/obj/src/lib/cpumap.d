build-san/obj/src/lib/cpumap.o: src/lib/cpumap.c src/lib/maps.h \
 include/sonde/cpumap.h include/sonde/common.h include/sonde/threadmap.h \
 src/lib/internal.h
src/lib/maps.h:
include/sonde/cpumap.h:
include/sonde/common.h:
include/sonde/threadmap.h:
src/lib/internal.h:
