build/obj/src/lib/perfdata_read_feat.o: src/lib/perfdata_read_feat.c \
 src/lib/internal.h include/sonde/common.h src/lib/perfdata_read.h \
 include/sonde/perfdata_reader.h include/sonde/abi.h
src/lib/internal.h:
include/sonde/common.h:
src/lib/perfdata_read.h:
include/sonde/perfdata_reader.h:
include/sonde/abi.h:
