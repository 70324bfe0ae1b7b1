build/obj/src/cli/main.o: src/cli/main.c src/cli/builtin.h \
 include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
 include/sonde/sys.h include/sonde/ring.h include/sonde/perfdata.h
src/cli/builtin.h:
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/ring.h:
include/sonde/perfdata.h:
