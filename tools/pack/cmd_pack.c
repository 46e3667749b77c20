/* SPDX-License-Identifier: MIT */
/* ltt pack: a trace directory as one gzip'd tar with a manifest (doc/shipping.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "reader/archive.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

extern const struct ltt_cmd ltt_cmd_pack;	/* at the end of this file */

#define PROGRESS_MIN_BYTES (64ull << 20)	/* smaller traces pack too fast for a bar to help */

struct bar {
	int shown;
	int last_pct;
};

static void draw(uint64_t done, uint64_t total, void *arg)
{
	struct bar *b = arg;
	int pct, width = 30, fill;

	if (total < PROGRESS_MIN_BYTES)
		return;
	pct = (int)(done * 100 / total);
	if (pct == b->last_pct)
		return;
	b->last_pct = pct;
	b->shown = 1;
	fill = pct * width / 100;
	fprintf(stderr, "\rltt pack: [%.*s%*s] %3d%% %" PRIu64 "/%" PRIu64 " MiB", fill,
		"##############################", width - fill, "", pct, done >> 20, total >> 20);
	fflush(stderr);
}

/* What to pack for the path given (ltt_capture_expand): a trace is itself; a flight-recorder trace
 * directory packs its newest snapshot (said on stderr); a chunked capture is refused with the fix.
 * 0 and *src (malloc'd), or 1 (reported). */
static int pack_source(const char *arg, char **src)
{
	struct ltt_capture *c;
	char err[1024];

	err[0] = 0;
	if (ltt_capture_expand(arg, 0, &c, err, sizeof(err))) {
		ltt_tool_error("pack", "%s", err);
		return 1;
	}
	if (c->kind == LTT_CAPTURE_CHUNKS) {
		ltt_tool_error("pack", "%s: chunked capture of %u chunks, not one trace: pack each chunk "
			       "(ltt pack %s -o NAME.tar.gz)", arg, c->ntraces, c->traces[0]);
		ltt_capture_free(c);
		return 1;
	}
	if (c->kind == LTT_CAPTURE_SNAPSHOTS)
		ltt_tool_error("pack", "%s: flight-recorder trace: packing its newest snapshot, %s (%u snapshots; "
			       "name another to pack it)", arg, c->traces[0], c->nfound);
	*src = c->traces[0];
	c->traces[0] = NULL;
	ltt_capture_free(c);
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "level", required_argument, NULL, 'l' },
		{ "force", no_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct ltt_pack_options po = { 0 };
	struct bar b = { 0, -1 };
	const char *out = NULL;
	char *def = NULL, *src = NULL, err[1024];
	struct stat st;
	int c, force = 0, ret, status = 1;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:l:fj:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'l': {
			char *end;
			long lv = strtol(optarg, &end, 10);

			if (*end || lv < 1 || lv > 9) {
				ltt_tool_error("pack", "--level %s: not a gzip level 1..9", optarg);
				return 2;
			}
			po.level = (int)lv;
			break;
		}
		case 'f':
			force = 1;
			break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end || n < 1 || n > 64) {
				ltt_tool_error("pack", "--threads %s: not a number of threads 1..64", optarg);
				return 2;
			}
			po.threads = (unsigned)n;
			break;
		}
		default:
			return ltt_cli_option_error("pack", ltt_cmd_pack.usage, c, argc, argv, opts);
		}
	}
	if (optind != argc - 1) {
		if (optind >= argc)
			ltt_tool_error("pack", "no trace given: ltt pack TRACE [-o FILE.tar.gz] (see ltt pack --help)");
		else
			ltt_tool_error("pack", "'%s': one trace at a time: ltt pack TRACE [-o FILE.tar.gz] (see ltt "
				       "pack --help)", argv[optind + 1]);
		return 2;
	}
	if (pack_source(argv[optind], &src))
		return 1;
	if (!out) {
		const char *arg = argv[optind], *base;
		char *real = NULL;
		size_t n = strlen(arg);
		int r;

		while (n > 1 && arg[n - 1] == '/')
			n--;
		base = memrchr(arg, '/', n) ? (const char *)memrchr(arg, '/', n) + 1 : arg;
		/* "." or "..": name the archive after the directory itself, beside it. */
		if ((n - (size_t)(base - arg) == 1 && base[0] == '.') ||
		    (n - (size_t)(base - arg) == 2 && !strncmp(base, "..", 2)) || (n == 1 && arg[0] == '/'))
			real = realpath(arg, NULL);
		if (real && !strcmp(real, "/")) {
			ltt_tool_error("pack", "%s: give the archive a name with -o", arg);
			free(real);
			status = 2;
			goto done;
		}
		r = real ? asprintf(&def, "%s.tar.gz", real) : asprintf(&def, "%.*s.tar.gz", (int)n, arg);
		free(real);
		if (r < 0) {
			ltt_tool_error("pack", "out of memory");
			goto done;
		}
		out = def;
	}
	if (!force && lstat(out, &st) == 0) {
		ltt_tool_error("pack", "%s: already exists (--force replaces it)", out);
		goto done;
	}
	if (isatty(STDERR_FILENO)) {
		po.progress = draw;
		po.progress_arg = &b;
	}
	ltt_archive_catch_interrupts();
	ret = ltt_archive_pack(src, out, &po, err, sizeof(err));
	if (b.shown)
		fprintf(stderr, "\r%*s\r", 70, "");
	if (ret) {
		ltt_tool_error("pack", "%s", err);
		goto done;
	}
	if (stat(out, &st) == 0)
		printf("%s: %" PRIu64 " bytes\n", out, (uint64_t)st.st_size);
	status = 0;
done:
	free(def);
	free(src);
	return status;
}

const struct ltt_cmd ltt_cmd_pack = {
	.name = "pack",
	.summary = "pack a trace directory into one .tar.gz for shipping",
	.usage =
	"usage: ltt pack TRACE [-o FILE.tar.gz] [--level N] [--threads N] [--force]\n"
	"\n"
	"Writes the trace directory TRACE as a gzip-compressed tar (default TRACE.tar.gz) whose entries\n"
	"sit under one directory named after TRACE, with info/manifest.xml added: the size and SHA-256 of\n"
	"every file, and the event and lost-event counts of every tracefile. `ltt unpack` and every\n"
	"reader command (dump, stats, check) read the archive. See doc/shipping.md.\n"
	"\n"
	"  -o, --output FILE   the archive to write (written beside it, then renamed into place)\n"
	"  -l, --level N       gzip level, 1 (fastest, default) to 9 (smallest)\n"
	"  -j, --threads N     compressing threads (default: one per CPU, at most 8); the archive's\n"
	"                      bytes are the same whatever N\n"
	"  -f, --force         replace FILE if it exists\n"
	"\n"
	"Refuses files outside the trace layout (doc/format.md section 1), symbolic links and special\n"
	"files. Shows a progress bar on stderr when it is a terminal and the trace is 64 MiB or more.\n",
	.run = run,
};
