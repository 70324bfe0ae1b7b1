// SPDX-License-Identifier: LGPL-2.1-only
/*
 * read(2) buffer decoding: the first 8 bytes pick the read_format, the rest
 * is the buffer. Bounded by the buffer whatever nr claims.
 */
#include <stdint.h>
#include <string.h>
#include "sonde/counts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonde_count out[4];
	uint64_t rf = 0;

	if (size < 8)
		return 0;
	memcpy(&rf, data, 8);
	rf &= 0x1f;
	sonde_count__decode(data + 8, size - 8, rf, out, 4);
	sonde_count__decode(data + 8, size - 8, rf, NULL, 0);
	return 0;
}
