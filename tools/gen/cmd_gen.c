/* SPDX-License-Identifier: MIT */
/* ltt gen: one C header per facility, with typed trace_<facility>_<event>() functions that encode
 * straight into the recorder's reserved slot (doc/eventdefs.md, "Generated API").
 *
 * The output depends only on the facility description: no dates, no paths. A header is rewritten only
 * when its text changes, so regenerating does not force recompilation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ltt/eventdefs.h>

#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "gen.h"

/* ---- files ------------------------------------------------------------------------------------ */

/* Writes text to path unless the file already holds exactly that text: 0 written, 1 unchanged, or a
 * negative errno. */
static int write_if_changed(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	FILE *f = fopen(path, "rb");
	int same = 0;

	if (f) {
		char *old = malloc(len + 1);

		if (old && fread(old, 1, len + 1, f) == len && !memcmp(old, text, len))
			same = 1;
		free(old);
		fclose(f);
	}
	if (same)
		return 1;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "wb");
	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		remove(tmp);
		return -EIO;
	}
	if (fclose(f)) {
		remove(tmp);
		return -EIO;
	}
	if (rename(tmp, path)) {
		int e = -errno;

		remove(tmp);
		return e;
	}
	return 0;
}

/* The value of option `name` at argv[*i] ("--name=V" or "--name V"); NULL when argv[*i] is not it;
 * *missing set when it has no value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return "";
	}
	return argv[++*i];
}

/* A prefix for C names: letters, digits and '_', not starting with a digit. */
static int good_prefix(const char *p)
{
	if (!*p || (*p >= '0' && *p <= '9'))
		return 0;
	for (; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

static int run(int argc, char **argv)
{
	struct ltt_eventdefs **defs;
	const char *dir = ".", *header = NULL, *prefix = NULL, *v;
	int dirlen;
	char err[512], path[4096];
	int n = 0, status = 0, r, missing = 0;
	uint32_t nfac = 0;

	defs = calloc((size_t)argc, sizeof(*defs));
	if (!defs) {
		ltt_tool_error("gen", "out of memory");
		return 1;
	}
	for (int i = 1; i < argc && !status; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (++i >= argc) {
				ltt_tool_error("gen", "-o needs a directory (ltt gen FILE.xml... -o DIR)");
				status = 2;
			} else {
				dir = argv[i];
			}
		} else if ((v = opt_value(argc, argv, &i, "--header", &missing))) {
			if (missing || !*v || strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, "..")) {
				ltt_tool_error("gen", "--header '%s': give a file name (the directory is -o DIR), "
					       "e.g. --header trace_myapp.h", v);
				status = 2;
			}
			header = v;
		} else if ((v = opt_value(argc, argv, &i, "--prefix", &missing))) {
			if (missing || !good_prefix(v)) {
				ltt_tool_error("gen", "--prefix '%s': give the start of C names (letters, digits, "
					       "'_', not a digit first), e.g. --prefix=myapp_", v);
				status = 2;
			}
			prefix = v;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			static const char *const known[] = { "-o", "--header", "--prefix", "--help" };
			char opt[64];
			const char *near;

			snprintf(opt, sizeof(opt), "%.*s", (int)strcspn(argv[i], "="), argv[i]);
			near = ltt_cli_nearest(opt, known, sizeof(known) / sizeof(known[0]));
			if (near)
				ltt_tool_error("gen", "unknown option '%s'; did you mean %s? (see ltt gen --help)", opt,
					       near);
			else
				ltt_tool_error("gen", "unknown option '%s' (see ltt gen --help)", opt);
			status = 2;
		} else if (ltt_eventdefs_parse_file(argv[i], &defs[n], err, sizeof(err))) {
			ltt_tool_error("gen", "%s", err);
			status = 1;
		} else {
			nfac += defs[n]->n_facilities;
			n++;
		}
	}
	if (!status && !n) {
		ltt_tool_error("gen", "no facility file given (ltt gen FILE.xml... [-o DIR])");
		status = 2;
	}
	if (!status && nfac > 1 && (header || prefix)) {
		ltt_tool_error("gen", "--%s names one facility's header and the files give %u facilities: run ltt "
			       "gen once per facility", header ? "header" : "prefix", nfac);
		status = 2;
	}
	if (!status && mkdir(dir, 0777) && errno != EEXIST) {
		ltt_tool_error("gen", "%s: cannot create: %s", dir, strerror(errno));
		status = 1;
	}
	/* one header per facility name: two facilities of that name would overwrite each other */
	for (int i = 0; i < n && !status; i++) {
		for (uint32_t k = 0; k < defs[i]->n_facilities && !status; k++) {
			const struct ltt_facility_desc *f = &defs[i]->facilities[k];

			for (int j = 0; j <= i && !status; j++) {
				uint32_t end = j == i ? k : defs[j]->n_facilities;

				for (uint32_t m = 0; m < end; m++) {
					const struct ltt_facility_desc *o = &defs[j]->facilities[m];

					if (strcmp(o->name, f->name))
						continue;
					ltt_tool_error("gen", "%s:%u: facility '%s' already defined at %s:%u", f->file,
						       f->line, f->name, o->file, o->line);
					status = 1;
					break;
				}
			}
		}
	}
	/* -o gen/ writes and says gen/myapp.h, not gen//myapp.h (-o / gives /myapp.h) */
	dirlen = (int)strlen(dir);
	while (dirlen > 0 && dir[dirlen - 1] == '/')
		dirlen--;
	for (int i = 0; i < n && !status; i++) {
		for (uint32_t k = 0; k < defs[i]->n_facilities && !status; k++) {
			struct gen g = { .fac = &defs[i]->facilities[k], .names.strings = 1, .prefix = prefix };

			r = gen_facility(&g);
			if (r) {
				ltt_tool_error("gen", "%s", g.err[0] ? g.err : "out of memory");
				status = 1;
			} else if ((size_t)(header ? snprintf(path, sizeof(path), "%.*s/%s", dirlen, dir, header)
						   : snprintf(path, sizeof(path), "%.*s/%s.h", dirlen, dir, g.fac->name)) >= sizeof(path)) {
				ltt_tool_error("gen", "%s: path too long", dir);
				status = 1;
			} else if ((r = write_if_changed(path, g.o.buf, g.o.len)) < 0) {
				ltt_tool_error("gen", "%s: cannot write: %s", path, strerror(-r));
				status = 1;
			} else {	/* what it wrote, as ltt record and ltt export say it */
				fprintf(stderr, "ltt gen: %s %s (facility %s, %u events)\n", r ? "unchanged" : "wrote",
					path, g.fac->name, g.fac->n_events);
			}
			gen_free(&g);
		}
	}
	for (int i = 0; i < n; i++)
		ltt_eventdefs_free(defs[i]);
	free(defs);
	return status;
}

const struct ltt_cmd ltt_cmd_gen = {
	.name = "gen",
	.summary = "generate the C header of each facility (trace_<facility>_<event>() functions)",
	.usage = "usage: ltt gen FILE.xml... [-o DIR] [--header NAME] [--prefix PREFIX]\n\n"
		 "Writes DIR/FACILITY.h (default DIR: .) for every facility of the files: typed\n"
		 "trace_<facility>_<event>() functions, the facility's XML and checksum, and its\n"
		 "registration with libltt. A header is rewritten only when its text changes.\n"
		 "See doc/eventdefs.md. On a bad file, prints FILE:LINE: what, and exits with status 1.\n"
		 "\n"
		 "  -o DIR           where the headers go (made if missing)\n"
		 "  --header NAME    the header's file name, DIR/NAME, instead of FACILITY.h (one facility)\n"
		 "  --prefix PREFIX  what starts the names a program uses, instead of FACILITY_ (one facility):\n"
		 "                   trace_PREFIXevent(), struct PREFIXtype, enum constants PREFIXTYPE_label\n"
		 "                   with PREFIX upper-cased (--prefix=myapp_: trace_myapp_send(),\n"
		 "                   MYAPP_PROTO_tcp)\n",
	.run = run,
};
