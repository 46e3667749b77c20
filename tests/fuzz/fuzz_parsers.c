/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the small parsers of option and attribute values — seconds (bookmarks' times,
 * --from/--to: ltt_parse_seconds) and sizes (--max-size, LTT_UNPACK_MAX: ltt_archive_parse_size). The
 * input is one NUL-free string (cut at 64 bytes). What parses prints back to a string that parses to
 * the same value; nothing crashes or reads past the string. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/reader.h>

#include "reader/archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[65], back[64];
	uint64_t v, w;

	if (size > 64)
		size = 64;
	memcpy(s, data, size);
	s[size] = 0;
	if (!ltt_parse_seconds(s, &v)) {
		snprintf(back, sizeof(back), "%" PRIu64 ".%09" PRIu64, v / 1000000000u, v % 1000000000u);
		if (ltt_parse_seconds(back, &w) || w != v)
			abort();
	}
	if (!ltt_archive_parse_size(s, &v)) {
		if (!v)
			abort();	/* 0 is refused */
		snprintf(back, sizeof(back), "%" PRIu64, v);
		if (ltt_archive_parse_size(back, &w) || w != v)
			abort();
	}
	return 0;
}
