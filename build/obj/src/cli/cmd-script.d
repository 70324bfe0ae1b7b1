build/obj/src/cli/cmd-script.o: src/cli/cmd-script.c src/cli/builtin.h \
 src/cli/options.h src/lib/anl.h src/lib/perfdata_read.h \
 include/sonde/perfdata_reader.h include/sonde/common.h \
 include/sonde/abi.h src/cli/outbuf.h
src/cli/builtin.h:
src/cli/options.h:
src/lib/anl.h:
src/lib/perfdata_read.h:
include/sonde/perfdata_reader.h:
include/sonde/common.h:
include/sonde/abi.h:
src/cli/outbuf.h:
