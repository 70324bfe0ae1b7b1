build-clang/obj/src/lib/evlist-spec.o: src/lib/evlist-spec.c \
  src/lib/evlist.h include/sonde/evlist.h include/sonde/common.h \
  include/sonde/abi.h include/sonde/cpumap.h include/sonde/threadmap.h \
  include/sonde/evsel.h include/sonde/counts.h src/lib/maps.h \
  src/lib/internal.h

src/lib/evlist.h:

include/sonde/evlist.h:

include/sonde/common.h:

include/sonde/abi.h:

include/sonde/cpumap.h:

include/sonde/threadmap.h:

include/sonde/evsel.h:

include/sonde/counts.h:

src/lib/maps.h:

src/lib/internal.h:
