build-clang/obj/src/cli/cmd-list.o: src/cli/cmd-list.c src/cli/builtin.h \
  src/cli/options.h include/sonde/sonde.h include/sonde/common.h \
  include/sonde/abi.h include/sonde/sys.h include/sonde/pmu.h \
  include/sonde/tracefs.h include/sonde/evparse.h src/lib/evparse-priv.h

src/cli/builtin.h:

src/cli/options.h:

include/sonde/sonde.h:

include/sonde/common.h:

include/sonde/abi.h:

include/sonde/sys.h:

include/sonde/pmu.h:

include/sonde/tracefs.h:

include/sonde/evparse.h:

src/lib/evparse-priv.h:
