build-clang/tests/test_common: tests/unit/test_common.c \
  include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
  include/sonde/sys.h include/sonde/evopen.h include/sonde/counts.h \
  include/sonde/cpumap.h include/sonde/threadmap.h include/sonde/evsel.h \
  include/sonde/evlist.h src/lib/internal.h

include/sonde/sonde.h:

include/sonde/common.h:

include/sonde/abi.h:

include/sonde/sys.h:

include/sonde/evopen.h:

include/sonde/counts.h:

include/sonde/cpumap.h:

include/sonde/threadmap.h:

include/sonde/evsel.h:

include/sonde/evlist.h:

src/lib/internal.h:
