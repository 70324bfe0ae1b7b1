build-san/obj/src/lib/record_encode.o: src/lib/record_encode.c \
 src/lib/record_internal.h include/sonde/record.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/record_internal.h:
include/sonde/record.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
