build-clang/tests/test_cpumap: tests/unit/test_cpumap.c \
  include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
  include/sonde/sys.h include/sonde/evopen.h include/sonde/counts.h \
  include/sonde/cpumap.h include/sonde/threadmap.h include/sonde/evsel.h \
  include/sonde/evlist.h src/lib/maps.h

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

src/lib/maps.h:
