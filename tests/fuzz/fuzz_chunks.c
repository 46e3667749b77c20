/* SPDX-License-Identifier: MIT */
/* libFuzzer target: a chunked capture's chunks-removed list (reader/capture.c), text the recorder
 * writes and anyone with access to the directory can change. The capture holds chunk-0001,
 * chunk-0003, chunk-0012 and chunk-4000000000; the input is its chunks-removed. Only the chunks it
 * lists count as removed: a chunk said missing is neither present nor listed (this target's reading
 * of the list sees a subset of the parser's: lines up to the first NUL, each shorter than 255 bytes);
 * a huge chunk number costs no time; nothing crashes. The directory goes at exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/reader.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint64_t present[] = { 1, 3, 12, 4000000000ull };
static char dir[4096];

static int listed(const uint8_t *data, size_t size, uint64_t k)
{
	char *text = malloc(size + 1), *save = NULL;
	int hit = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	/* the parser reads lines with fgets into 256 bytes: longer lines are read in pieces */
	for (char *line = strtok_r(text, "\n", &save); line && !hit; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long num, bytes;

		hit = strlen(line) < 255 && sscanf(line, "chunk-%llu removed %llu", &num, &bytes) == 2 && num == k;
	}
	free(text);
	return hit;
}

static void cleanup(void)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/chunks-removed", dir);
	unlink(p);
	for (size_t i = 0; i < sizeof(present) / sizeof(*present); i++) {
		snprintf(p, sizeof(p), "%s/chunk-%04llu", dir, (unsigned long long)present[i]);
		rmdir(p);
	}
	rmdir(dir);
}

static int is_present(uint64_t k)
{
	for (size_t i = 0; i < sizeof(present) / sizeof(*present); i++)
		if (present[i] == k)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_capture *c;
	char p[4200], err[512];
	FILE *f;

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/fuzz-chunks-%d", tmp ? tmp : "/tmp", (int)getpid());
		mkdir(dir, 0700);
		for (size_t i = 0; i < sizeof(present) / sizeof(*present); i++) {
			snprintf(p, sizeof(p), "%s/chunk-%04llu", dir, (unsigned long long)present[i]);
			mkdir(p, 0700);
		}
		atexit(cleanup);
	}
	if (size > 4096)
		return 0;
	snprintf(p, sizeof(p), "%s/chunks-removed", dir);
	f = fopen(p, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (ltt_capture_expand(dir, 0, &c, err, sizeof(err)))
		return 0;
	if (c->nmissing) {
		/* said missing: neither present nor listed (first and last of the run checked) */
		if (is_present(c->first_missing) || listed(data, size, c->first_missing) ||
		    is_present(c->first_missing + c->nmissing - 1) ||
		    listed(data, size, c->first_missing + c->nmissing - 1))
			abort();
	}
	ltt_capture_free(c);
	return 0;
}
