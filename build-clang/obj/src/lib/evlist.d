build-clang/obj/src/lib/evlist.o: src/lib/evlist.c include/sonde/evopen.h \
  include/sonde/common.h include/sonde/abi.h include/sonde/sys.h \
  src/lib/evlist.h include/sonde/evlist.h include/sonde/cpumap.h \
  include/sonde/threadmap.h include/sonde/evsel.h include/sonde/counts.h \
  src/lib/maps.h src/lib/internal.h

include/sonde/evopen.h:

include/sonde/common.h:

include/sonde/abi.h:

include/sonde/sys.h:

src/lib/evlist.h:

include/sonde/evlist.h:

include/sonde/cpumap.h:

include/sonde/threadmap.h:

include/sonde/evsel.h:

include/sonde/counts.h:

src/lib/maps.h:

src/lib/internal.h:
