build-san/tests/test_record: tests/unit/test_record.c \
 include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
 include/sonde/sys.h include/sonde/record.h src/lib/record_internal.h \
 src/lib/internal.h tests/unit/record_fixtures.h
include/sonde/sonde.h:
include/sonde/common.h:
include/sonde/abi.h:
include/sonde/sys.h:
include/sonde/record.h:
src/lib/record_internal.h:
src/lib/internal.h:
tests/unit/record_fixtures.h:
