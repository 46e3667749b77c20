/* SPDX-License-Identifier: MIT */
/* The reader commands' trace sets (toolkit/reader_tool.h): opening them with their problems held and
 * shown once, the recordings that never stopped, --threads, the exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/parse.h"
#include "reader/write_losses.h"
#include "toolkit/cmd.h"
#include "toolkit/reader_tool.h"

void reader_tool_problem(void *arg, const struct ltt_problem *p)
{
	struct reader_tool *t = arg;
	char buf[1024];

	t->problems++;
	if (t->silent)
		return;
	ltt_problem_format(p, buf, sizeof(buf));
	if (t->hold) {
		if (!LTT_GROW(t->held, t->nheld + 1, t->capheld) && (t->held[t->nheld] = strdup(buf))) {
			t->nheld++;
			return;
		}
	}
	ltt_tool_error(t->cmd, "%s", buf);
}

/* Prints (print) or drops the problem lines held while opening. */
static void release_held(struct reader_tool *t, int print)
{
	for (size_t i = 0; i < t->nheld; i++) {
		if (print)
			ltt_tool_error(t->cmd, "%s", t->held[i]);
		free(t->held[i]);
	}
	free(t->held);
	t->held = NULL;
	t->nheld = t->capheld = 0;
	t->hold = 0;
}

/* The lines saying what was read of a capture and what was left (not problems: the exit status is
 * unchanged), except chunks missing without being listed as removed, which are lost data. */
static void capture_notes(struct reader_tool *tool, const struct ltt_capture *c)
{
	const char *cmd = tool->cmd;

	if (c->kind == LTT_CAPTURE_SNAPSHOTS) {
		if (c->ntraces > 1)
			ltt_tool_error(cmd, "%s: flight-recorder trace: reading its %u snapshots, %s to %s", c->path,
				       c->ntraces, c->traces[0], c->traces[c->ntraces - 1]);
		else if (c->nfound > 1)
			ltt_tool_error(cmd, "%s: flight-recorder trace: reading its newest snapshot, %s (%u snapshots; "
				       "--all-snapshots reads them all)", c->path, c->traces[0], c->nfound);
		else
			ltt_tool_error(cmd, "%s: flight-recorder trace: reading its snapshot %s", c->path, c->traces[0]);
	}
	for (unsigned i = 0; i < c->npartial; i++) {
		int read = 0;

		for (unsigned k = 0; k < c->ntraces; k++)
			read |= !strcmp(c->traces[k], c->partial[i]);
		if (c->kind == LTT_CAPTURE_SNAPSHOTS)
			ltt_tool_error(cmd, "%s: incomplete snapshot (cut short while being written), skipped",
				       c->partial[i]);
		else if (!read)
			ltt_tool_error(cmd, "%s: chunk being written (or left by a crash), skipped (ltt dump --follow "
				       "reads it)", c->partial[i]);
	}
	if (c->nremoved == 1)
		ltt_tool_error(cmd, "%s: chunk-%04llu (%llu bytes) was removed by the size bound (LTT_MAX_SIZE); "
			       "reading the %u kept", c->path, (unsigned long long)c->first_removed,
			       (unsigned long long)c->removed_bytes, c->ntraces);
	else if (c->nremoved)
		ltt_tool_error(cmd, "%s: chunk-%04llu to chunk-%04llu (%u chunks, %llu bytes) were removed by the "
			       "size bound (LTT_MAX_SIZE); reading the %u kept", c->path,
			       (unsigned long long)c->first_removed, (unsigned long long)c->last_removed, c->nremoved,
			       (unsigned long long)c->removed_bytes, c->ntraces);
	if (c->nmissing == 1)
		ltt_tool_error(cmd, "%s: chunk-%04llu missing (not listed in chunks-removed): its events are lost",
			       c->path, (unsigned long long)c->first_missing);
	else if (c->nmissing)
		ltt_tool_error(cmd, "%s: chunk-%04llu to chunk-%04llu missing (not listed in chunks-removed): "
			       "their events are lost", c->path, (unsigned long long)c->first_missing,
			       (unsigned long long)(c->first_missing + c->nmissing - 1));
	if (c->nmissing)
		tool->problems++;
}

/* Expands every path (ltt_capture_expand); a path that does not expand is reported and counted in
 * tool->skipped. Returns the paths to open (malloc'd strings, *n of them) or NULL. */
static char **expand_paths(struct reader_tool *tool, char **paths, unsigned npaths, unsigned *n)
{
	char **v = NULL, err[1024];
	size_t cap = 0;

	*n = 0;
	for (unsigned i = 0; i < npaths; i++) {
		struct ltt_capture *c;
		int nomem;

		err[0] = 0;
		if (ltt_capture_expand(paths[i], tool->capture_flags, &c, err, sizeof(err))) {
			ltt_tool_error(tool->cmd, "%s%s", err, npaths > 1 ? " (trace left out)" : "");
			tool->skipped++;
			continue;
		}
		capture_notes(tool, c);
		if (!(nomem = LTT_GROW(v, (size_t)*n + c->ntraces, cap))) {
			for (unsigned k = 0; k < c->ntraces; k++) {
				v[(*n)++] = c->traces[k];
				c->traces[k] = NULL;
			}
			c->ntraces = 0;
		}
		ltt_capture_free(c);
		if (nomem) {
			ltt_tool_error(tool->cmd, "out of memory");
			break;
		}
	}
	return v;
}

static int open_set(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		    const struct ltt_reader_options *opt);

int reader_tool_open(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		     const struct ltt_reader_options *opt)
{
	unsigned n;
	char **v = expand_paths(tool, paths, npaths, &n);
	int ret = -ENOENT;

	if (n)
		ret = open_set(tool, r, v, n, opt);
	for (unsigned i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return ret;
}

static int open_set(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		    const struct ltt_reader_options *opt)
{
	struct ltt_reader_options quiet = { .flags = opt->flags };
	const char **good;
	unsigned ngood = 0;
	char err[1024];
	int ret;

	uint64_t problems = tool->problems;
	int fatal;

	/* Problems found while opening are held until the whole set opened: when a trace of the set
	 * fails, the others are opened again, and their problems must not be printed twice. */
	err[0] = 0;
	tool->hold = npaths > 1;
	ret = ltt_reader_open(r, (const char *const *)paths, npaths, opt, err, sizeof(err));
	fatal = !ret || npaths < 2 || ret == -ENOMEM || ret == -EMFILE || ret == -ENFILE;
	release_held(tool, fatal);
	if (fatal) {
		if (ret)
			ltt_tool_error(tool->cmd, "%s%s", *err ? err : strerror(-ret),
				       ret == -EMFILE ? " (every tracefile of the set stays open: raise ulimit -n)" : "");
		return ret;
	}
	tool->problems = problems;
	/* Some trace of the set cannot be opened: find which (opening each alone, problems not
	 * reported), report them, and open the others. */
	good = calloc(npaths, sizeof(*good));
	if (!good) {
		ltt_tool_error(tool->cmd, "out of memory");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < npaths; i++) {
		struct ltt_reader *one;

		err[0] = 0;
		ret = ltt_reader_open(&one, (const char *const *)paths + i, 1, &quiet, err, sizeof(err));
		if (ret) {
			ltt_tool_error(tool->cmd, "%s (trace left out)", *err ? err : strerror(-ret));
			tool->skipped++;
			continue;
		}
		ltt_reader_close(one);
		good[ngood++] = paths[i];
	}
	ret = -ENOENT;
	if (ngood) {
		err[0] = 0;
		ret = ltt_reader_open(r, good, ngood, opt, err, sizeof(err));
		if (ret)
			ltt_tool_error(tool->cmd, "%s", *err ? err : strerror(-ret));
	}
	free(good);
	return ret;
}

unsigned reader_tool_not_stopped(struct reader_tool *tool, struct ltt_reader *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		if (!ltt_trace_not_stopped(t->dir))
			continue;
		ltt_tool_error(tool->cmd, "%s: " LTT_NOT_STOPPED " (info/write-losses is empty: the recording "
			       "process was killed, or still records)", t->path);
		n++;
	}
	tool->problems += n;
	return n;
}

int reader_threads_option(const char *cmd, const char *arg, unsigned *threads)
{
	uint64_t t;

	if (ltt_parse_u64(arg, &t) || t > 16) {
		ltt_tool_error(cmd, "--threads=%s: expected a number from 0 (automatic) to 16", arg);
		return -1;
	}
	*threads = (unsigned)t;
	return 0;
}
