build-san/obj/src/lib/sample_decode.o: src/lib/sample_decode.c \
 src/lib/record_internal.h include/sonde/record.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/record_internal.h:
include/sonde/record.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
