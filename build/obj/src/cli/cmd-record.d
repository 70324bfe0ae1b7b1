build/obj/src/cli/cmd-record.o: src/cli/cmd-record.c src/cli/builtin.h \
 src/cli/options.h src/cli/record.h include/sonde/sonde.h \
 include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
 include/sonde/ring.h include/sonde/perfdata.h
src/cli/builtin.h:
src/cli/options.h:
src/cli/record.h:
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/ring.h:
include/sonde/perfdata.h:
