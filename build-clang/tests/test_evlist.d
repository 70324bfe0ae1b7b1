build-clang/tests/test_evlist: tests/unit/test_evlist.c \
  include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
  include/sonde/sys.h include/sonde/evopen.h include/sonde/counts.h \
  include/sonde/cpumap.h include/sonde/threadmap.h include/sonde/evsel.h \
  include/sonde/evlist.h src/lib/evopen.h src/lib/evlist.h \
  src/lib/maps.h

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

src/lib/evopen.h:

src/lib/evlist.h:

src/lib/maps.h:
