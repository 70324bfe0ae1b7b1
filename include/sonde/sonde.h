/* SPDX-License-Identifier: LGPL-2.1-only */
/* Umbrella header: everything libsonde exports. */
#ifndef SONDE_SONDE_H
#define SONDE_SONDE_H

#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/sys.h"
#include "sonde/sysctl.h"
#include "sonde/pmu.h"
#include "sonde/tracefs.h"
#include "sonde/evparse.h"
#include "sonde/evopen.h"
#include "sonde/counts.h"
#include "sonde/cpumap.h"
#include "sonde/threadmap.h"
#include "sonde/evsel.h"
#include "sonde/evlist.h"
#include "sonde/evctl.h"
#include "sonde/overflow.h"
#include "sonde/record.h"
#include "sonde/evlist_records.h"
#include "sonde/symbols.h"
#include "sonde/insn.h"
#include "sonde/unwind.h"
#include "sonde/perfdata_reader.h"
#include "sonde/region.h"
#include "sonde/stat.h"
#include "sonde/ring.h"
#include "sonde/perfdata.h"
#include "sonde/synth.h"
#include "sonde/profile.h"
#include "sonde/export.h"

#endif /* SONDE_SONDE_H */
