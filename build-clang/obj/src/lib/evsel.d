build-clang/obj/src/lib/evsel.o: src/lib/evsel.c include/sonde/sys.h \
  include/sonde/common.h include/sonde/abi.h src/lib/evlist.h \
  include/sonde/evlist.h include/sonde/cpumap.h \
  include/sonde/threadmap.h include/sonde/evsel.h include/sonde/counts.h \
  src/lib/maps.h src/lib/internal.h

include/sonde/sys.h:

include/sonde/common.h:

include/sonde/abi.h:

src/lib/evlist.h:

include/sonde/evlist.h:

include/sonde/cpumap.h:

include/sonde/threadmap.h:

include/sonde/evsel.h:

include/sonde/counts.h:

src/lib/maps.h:

src/lib/internal.h:
