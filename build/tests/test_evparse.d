build/tests/test_evparse: tests/unit/test_evparse.c include/sonde/sonde.h \
 include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
 include/sonde/pmu.h include/sonde/tracefs.h include/sonde/evparse.h \
 tests/unit/fake_tree.h
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/pmu.h:
include/sonde/tracefs.h:
include/sonde/evparse.h:
tests/unit/fake_tree.h:
