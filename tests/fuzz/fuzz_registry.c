/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the `ltt snapshot` registry file parser (common/snapshot_registry.c), which reads
 * files another process wrote. Whatever it accepts names an absolute path and a snapshot signal libltt
 * can register, and formats back to text that parses to the same entry; a refusal is one line without
 * control characters; nothing reads past the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/snapshot_registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ltt_snapreg_entry e, back;
	static char text[2 * PATH_MAX + 128];
	char why[256];
	char *copy;
	int n;

	if (size > LTT_SNAPREG_MAX)
		return 0;
	copy = malloc(size ? size : 1);	/* exactly size bytes: ASan sees any read past them */
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	why[0] = 0;
	if (ltt_snapreg_parse(copy, size, &e, why, sizeof(why))) {
		for (const char *p = why; *p; p++)
			if ((unsigned char)*p < 0x20)
				abort();	/* the refusal is one printable line */
		free(copy);
		return 0;
	}
	free(copy);
	if (e.path[0] != '/' || !ltt_snapreg_signal_ok(e.sig) || !e.start)
		abort();
	n = ltt_snapreg_format(text, sizeof(text), &e);
	if (n <= 0 || ltt_snapreg_parse(text, (size_t)n, &back, why, sizeof(why)) ||
	    memcmp(&e, &back, sizeof(e)))
		abort();
	return 0;
}
