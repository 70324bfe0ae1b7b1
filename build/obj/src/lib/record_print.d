build/obj/src/lib/record_print.o: src/lib/record_print.c \
 src/lib/record_internal.h include/sonde/record.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/record_internal.h:
include/sonde/record.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
