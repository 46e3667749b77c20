/* SPDX-License-Identifier: MIT */
/* ltt unpack: safe extraction of a packed trace (doc/shipping.md). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/archive.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

extern const struct ltt_cmd ltt_cmd_unpack;	/* at the end of this file */

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "directory", required_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "no-verify", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct ltt_unpack_options uo = { 0 };
	const char *dir = NULL, *target = NULL;
	char *name = NULL, *path = NULL, err[1024];
	struct stat st;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":C:o:f", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			dir = optarg;
			break;
		case 'o':
			target = optarg;
			break;
		case 'f':
			uo.force = 1;
			break;
		case 'm':
			if (ltt_archive_parse_size(optarg, &uo.max_bytes)) {
				ltt_tool_error("unpack", "--max-size %s: not a size (bytes, or with K, M, G, T)", optarg);
				return 2;
			}
			break;
		case 'n':
			uo.no_verify = 1;
			break;
		default:
			return ltt_cli_option_error("unpack", ltt_cmd_unpack.usage, c, argc, argv, opts);
		}
	}
	if (optind != argc - 1) {
		if (optind >= argc)
			ltt_tool_error("unpack", "no archive given: ltt unpack FILE.tar.gz [-C DIR | -o TRACE] (see "
				       "ltt unpack --help)");
		else
			ltt_tool_error("unpack", "'%s': one archive at a time: ltt unpack FILE.tar.gz [-C DIR | -o "
				       "TRACE] (see ltt unpack --help)", argv[optind + 1]);
		return 2;
	}
	if (dir && target) {
		ltt_tool_error("unpack", "-C and -o: give one (-C DIR extracts under DIR, -o TRACE names the trace)");
		return 2;
	}
	if (dir && stat(dir, &st)) {
		ltt_tool_error("unpack", "-C %s: %s (create it first: mkdir -p %s)", dir,
			       errno == ENOENT ? "no such directory" : strerror(errno), dir);
		return 1;
	}
	if (dir && !S_ISDIR(st.st_mode)) {
		ltt_tool_error("unpack", "-C %s: not a directory (give the directory to extract under)", dir);
		return 1;
	}
	if (!target) {
		if (ltt_archive_trace_name(argv[optind], &name, err, sizeof(err))) {
			ltt_tool_error("unpack", "%s", err);
			return 1;
		}
		if (asprintf(&path, "%s/%s", dir ? dir : ".", name) < 0) {
			ltt_tool_error("unpack", "out of memory");
			free(name);
			return 1;
		}
		target = path;
	}
	ltt_archive_catch_interrupts();
	ret = ltt_archive_unpack(argv[optind], target, &uo, err, sizeof(err));
	if (ret) {
		ltt_tool_error("unpack", "%s", err);
	} else {
		if (!uo.manifest_found)
			ltt_tool_error("unpack", "%s: no info/manifest.xml: contents not verified", argv[optind]);
		printf("%s\n", target);
	}
	free(name);
	free(path);
	return ret ? 1 : 0;
}

const struct ltt_cmd ltt_cmd_unpack = {
	.name = "unpack",
	.summary = "extract a packed trace safely, checking its manifest",
	.usage =
	"usage: ltt unpack FILE.tar.gz [-C DIR | -o TRACE] [--force] [--max-size SIZE] [--no-verify]\n"
	"\n"
	"Extracts the trace packed by `ltt pack` into DIR/NAME (NAME: the archive's top-level directory;\n"
	"DIR: the current directory unless -C) or into TRACE (-o), and prints that path. Entries are\n"
	"written to a temporary directory beside the target and renamed into place once all of them are\n"
	"written and match info/manifest.xml: a refused or damaged archive leaves nothing behind.\n"
	"\n"
	"  -C, --directory DIR  extract under DIR\n"
	"  -o, --output TRACE   extract to exactly TRACE\n"
	"  -f, --force          replace an existing target directory\n"
	"      --max-size SIZE  refuse archives expanding past SIZE bytes (K, M, G, T suffixes; default 4G)\n"
	"      --no-verify      do not check the manifest's sizes and SHA-256 digests\n"
	"\n"
	"Refused: absolute paths, '..', symbolic and hard links, devices, fifos, sockets, entries outside\n"
	"the trace layout (doc/format.md section 1), duplicate entries, a manifest mismatch.\n",
	.run = run,
};
