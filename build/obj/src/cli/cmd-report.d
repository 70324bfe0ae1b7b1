build/obj/src/cli/cmd-report.o: src/cli/cmd-report.c src/cli/builtin.h \
 src/cli/options.h src/cli/cmd-report.h src/lib/anl.h \
 src/lib/perfdata_read.h include/sonde/perfdata_reader.h \
 include/sonde/common.h include/sonde/abi.h src/cli/outbuf.h
src/cli/builtin.h:
src/cli/options.h:
src/cli/cmd-report.h:
src/lib/anl.h:
src/lib/perfdata_read.h:
include/sonde/perfdata_reader.h:
include/sonde/common.h:
include/sonde/abi.h:
src/cli/outbuf.h:
