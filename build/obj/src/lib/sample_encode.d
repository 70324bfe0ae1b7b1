build/obj/src/lib/sample_encode.o: src/lib/sample_encode.c \
 src/lib/record_internal.h include/sonde/record.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/record_internal.h:
include/sonde/record.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
