/* SPDX-License-Identifier: LGPL-2.1-only */
/* Umbrella header: everything libsonde exports. */
#ifndef SONDE_SONDE_H
#define SONDE_SONDE_H

#include "sonde/common.h"
#include "sonde/abi.h"
#include "sonde/sys.h"
#include "sonde/ring.h"
#include "sonde/perfdata.h"

#endif /* SONDE_SONDE_H */
