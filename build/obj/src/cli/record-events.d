build/obj/src/cli/record-events.o: src/cli/record-events.c \
 src/cli/record.h include/sonde/sonde.h include/sonde/common.h \
 include/sonde/abi.h include/sonde/sys.h include/sonde/ring.h \
 include/sonde/perfdata.h
src/cli/record.h:
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/ring.h:
include/sonde/perfdata.h:
