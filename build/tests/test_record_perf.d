build/tests/test_record_perf: tests/unit/test_record_perf.c \
 include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
 include/sonde/sys.h include/sonde/record.h
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/record.h:
