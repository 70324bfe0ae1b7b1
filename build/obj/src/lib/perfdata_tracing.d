build/obj/src/lib/perfdata_tracing.o: src/lib/perfdata_tracing.c \
 src/lib/perfdata_write.h include/sonde/perfdata.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/perfdata_write.h:
include/sonde/perfdata.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
