build/tests/test_ring: tests/unit/test_ring.c include/sonde/sonde.h \
 include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
 include/sonde/ring.h src/lib/internal.h
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/ring.h:
src/lib/internal.h:
