build/obj/src/lib/anl_machine.o: src/lib/anl_machine.c src/lib/internal.h \
 include/sonde/common.h src/lib/anl.h src/lib/perfdata_read.h \
 include/sonde/perfdata_reader.h include/sonde/abi.h src/lib/anl_priv.h
src/lib/internal.h:
include/sonde/common.h:
src/lib/anl.h:
src/lib/perfdata_read.h:
include/sonde/perfdata_reader.h:
include/sonde/abi.h:
src/lib/anl_priv.h:
