/* SPDX-License-Identifier: MIT */
/* Durations and widths of text for people (toolkit/text_units.h). */
#include <inttypes.h>
#include <stdio.h>

#include "toolkit/text_units.h"

char *reader_format_duration(char *buf, size_t size, uint64_t ns)
{
	static const struct { uint64_t ns; const char *name; } units[] = {
		{ 1000u, "µs" }, { 1000000u, "ms" }, { 1000000000u, "s" },
	};
	uint64_t hundredths = 0;
	unsigned u;

	if (ns < 1000u) {
		snprintf(buf, size, "%" PRIu64 "ns", ns);
		return buf;
	}
	for (u = 0; u < sizeof(units) / sizeof(*units); u++) {
		/* rounded half up, without overflow: (ns + unit/200) / (unit/100) */
		hundredths = ns / (units[u].ns / 100u) + (ns % (units[u].ns / 100u) >= units[u].ns / 200u);
		if (hundredths < 100000u || u + 1 == sizeof(units) / sizeof(*units))
			break;
	}
	snprintf(buf, size, "%" PRIu64 ".%02" PRIu64 "%s", hundredths / 100u, hundredths % 100u, units[u].name);
	return buf;
}

size_t reader_text_columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}
