build-clang/obj/src/cli/main.o: src/cli/main.c src/cli/builtin.h \
  include/sonde/sonde.h include/sonde/common.h include/sonde/abi.h \
  include/sonde/sys.h include/sonde/evopen.h include/sonde/counts.h \
  include/sonde/cpumap.h include/sonde/threadmap.h include/sonde/evsel.h \
  include/sonde/evlist.h

src/cli/builtin.h:

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
