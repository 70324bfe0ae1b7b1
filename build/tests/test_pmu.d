build/tests/test_pmu: tests/unit/test_pmu.c include/sonde/sonde.h \
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
