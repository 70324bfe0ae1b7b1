build/tests/test_common: tests/unit/test_common.c include/sonde/sonde.h \
 include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
 include/sonde/pmu.h include/sonde/tracefs.h include/sonde/evparse.h \
 src/lib/internal.h
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/pmu.h:
include/sonde/tracefs.h:
include/sonde/evparse.h:
src/lib/internal.h:
