build/obj/src/cli/cmd-report-print.o: src/cli/cmd-report-print.c \
 src/cli/cmd-report.h src/lib/anl.h src/lib/perfdata_read.h \
 include/sonde/perfdata_reader.h include/sonde/common.h \
 include/sonde/abi.h src/cli/outbuf.h
src/cli/cmd-report.h:
src/lib/anl.h:
src/lib/perfdata_read.h:
include/sonde/perfdata_reader.h:
include/sonde/common.h:
include/sonde/abi.h:
src/cli/outbuf.h:
