build-san/obj/src/lib/strerror.o: src/lib/strerror.c src/lib/internal.h \
 include/sonde/common.h
src/lib/internal.h:
include/sonde/common.h:
