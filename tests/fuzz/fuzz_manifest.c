/* SPDX-License-Identifier: MIT */
/* libFuzzer target: info/manifest.xml, parsed and compared (fuzz_pack never reaches the parser: its
 * archives are refused earlier). A manifest that parses is formatted and parsed back to the same
 * list; compared with itself it matches; with one size changed, or one file missing, it does not, and
 * the message names the file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const struct ltt_manifest *a, const struct ltt_manifest *b)
{
	if (a->n != b->n || strcmp(a->ltt_version, b->ltt_version) || strcmp(a->host, b->host))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->files[i].path, b->files[i].path) || a->files[i].size != b->files[i].size ||
		    strcmp(a->files[i].sha256, b->files[i].sha256) || a->files[i].events != b->files[i].events ||
		    a->files[i].lost != b->files[i].lost || a->files[i].overwritten != b->files[i].overwritten)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_manifest m, back;
	char err[1024], *xml;
	size_t len;

	if (ltt_manifest_parse((const char *)data, size, "m", &m, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (ltt_manifest_format(&m, &xml, &len))
		abort();
	if (ltt_manifest_parse(xml, len, "back", &back, err, sizeof(err)) || !same(&m, &back))
		abort();
	free(xml);
	ltt_manifest_free(&back);
	if (ltt_manifest_compare(&m, m.files, m.n, "t", err, sizeof(err)))
		abort();
	if (m.n) {	/* what was "found": a copy, one size changed, then one file missing */
		struct ltt_manifest_file *found = malloc(m.n * sizeof(*found));

		if (!found)
			abort();
		memcpy(found, m.files, m.n * sizeof(*found));
		found[0].size ^= 1;
		if (!ltt_manifest_compare(&m, found, m.n, "t", err, sizeof(err)) || !strstr(err, m.files[0].path))
			abort();
		if (!ltt_manifest_compare(&m, m.files + 1, m.n - 1, "t", err, sizeof(err)))
			abort();
		free(found);
	}
	ltt_manifest_free(&m);
	return 0;
}
