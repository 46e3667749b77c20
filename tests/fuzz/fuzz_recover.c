/* SPDX-License-Identifier: MIT */
/* libFuzzer target: ring files as `ltt recover` reads them (tools/recover/, linked by the fuzz rule's
 * convention: fuzz_NAME.c gets tools/NAME/). The input is the ring file; a file whose process is
 * "dead" is rebuilt into a trace, which the reader then reads whole. Probe and rebuild never trust the
 * file: no crash, no hang, no read outside it; an error is one line. */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "tools/recover/recover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base[4096], ring[4200], out[4200];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cleanup(void)
{
	rm_tree(base);
}

static void problem(void *arg, const struct ltt_problem *p)
{
	(void)arg;
	if (!p->what || !*p->what)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct recover_file_info fi;
	struct recover_stats st;
	char err[512] = "";
	FILE *f;

	if (!base[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(base, sizeof(base), "%s/ltt-fuzz-recover-%d", t && *t ? t : "/tmp", (int)getpid());
		if (mkdir(base, 0700))
			abort();
		atexit(cleanup);
		snprintf(ring, sizeof(ring), "%s/ltt-1.ring", base);
		snprintf(out, sizeof(out), "%s/out", base);
	}
	f = fopen(ring, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size))
		abort();
	fclose(f);
	rm_tree(out);
	if (recover_probe(ring, &fi) || fi.state != RECOVER_DEAD)
		return 0;
	if (recover_rebuild(ring, out, &st, err, sizeof(err))) {
		if (strchr(err, '\n'))
			abort();
	} else {
		struct ltt_reader_options o = { .flags = LTT_READ_BUILTIN | LTT_READ_CHECK, .problem = problem };
		const char *paths[1] = { out };
		struct ltt_reader *r;
		struct ltt_event ev;

		if (!ltt_reader_open(&r, paths, 1, &o, err, sizeof(err))) {
			while (ltt_reader_next(r, &ev) == 1)
				;
			ltt_reader_close(r);
		}
	}
	rm_tree(out);
	return 0;
}
