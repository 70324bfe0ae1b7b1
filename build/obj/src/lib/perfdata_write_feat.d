build/obj/src/lib/perfdata_write_feat.o: src/lib/perfdata_write_feat.c \
 src/lib/perfdata_write.h include/sonde/perfdata.h include/sonde/common.h \
 include/sonde/abi.h src/lib/internal.h
src/lib/perfdata_write.h:
include/sonde/perfdata.h:
include/sonde/common.h:
include/sonde/abi.h:
src/lib/internal.h:
