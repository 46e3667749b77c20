/* SPDX-License-Identifier: MIT */
/* ltt recover: rebuilds a trace from the ring file of a flight-mode process that died (LTT_SHM_DIR),
 * or lists the ring files of a directory (doc/flight-recorder.md "Recovery"). */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "recorder/shm_layout.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "recover.h"

extern const struct ltt_cmd ltt_cmd_recover;	/* at the end of this file */

static const char *const state_names[] = { "bad", "running", "dead", "stopped" };

static int is_ring_name(const char *n)
{
	size_t len = strlen(n), sl = strlen(LTT_SHM_SUFFIX);

	return !strncmp(n, LTT_SHM_PREFIX, strlen(LTT_SHM_PREFIX)) && len > sl &&
	       !strcmp(n + len - sl, LTT_SHM_SUFFIX);
}

/* Calls fn for each ring file of dir that recover_probe reads (readdir's order): 0, or 1 after an
 * error line when dir cannot be read. */
static int each_ring(const char *dir, void (*fn)(void *arg, const char *path, const struct recover_file_info *fi),
		     void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		ltt_tool_error("recover", "%s: %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		struct recover_file_info fi;
		char path[4096];

		if (!is_ring_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!recover_probe(path, &fi))
			fn(arg, path, &fi);
	}
	closedir(d);
	return 0;
}

struct dead {
	char *path;
	size_t len;
	unsigned n;
};

static void dead_one(void *arg, const char *path, const struct recover_file_info *fi)
{
	struct dead *x = arg;

	if (fi->state == RECOVER_DEAD && !x->n++)
		snprintf(x->path, x->len, "%s", path);
}

/* The one ring file of a dead process in dir (into path): 0, or 1 after an error line. */
static int only_dead(const char *dir, char *path, size_t len)
{
	struct dead x = { path, len, 0 };

	if (each_ring(dir, dead_one, &x))
		return 1;
	if (x.n == 1)
		return 0;
	ltt_tool_error("recover", "%s: %u ring files of dead processes; name one (ltt recover --list %s)", dir, x.n,
		       dir);
	return 1;
}

static void list_one(void *arg, const char *path, const struct recover_file_info *fi)
{
	if (fi->state == RECOVER_BAD)
		printf("%s\tbad\t%s\n", path, fi->why);
	else
		printf("%s\t%s\tpid %d\t%s\t%u cpus x %u blocks x %u bytes\n", path, state_names[fi->state],
		       fi->pid, fi->program, fi->ncpu, fi->blocks, fi->block_size);
	++*(unsigned *)arg;
}

static int list(const char *dir)
{
	unsigned n = 0;

	if (each_ring(dir, list_one, &n))
		return 1;
	if (!n)
		fprintf(stderr, "ltt recover: no ring files in %s\n", dir);
	return 0;
}

/* What reading the trace written back finds: the first problem (one line) and how many. */
struct readback {
	uint64_t problems;
	char first[512];
};

static void readback_problem(void *arg, const struct ltt_problem *p)
{
	struct readback *rb = arg;

	if (!rb->problems++)
		ltt_problem_format(p, rb->first, sizeof(rb->first));
}

/* Reads the trace written back with the reader, every event and the zero fill checked (as ltt check
 * does): recover never says a trace is whole that the reader cannot read whole. 0 when it reads
 * without a problem; else 1 after the line naming what could not be recovered. */
static int read_back(const char *out)
{
	struct readback rb = { 0 };
	struct ltt_reader_options o = { .flags = LTT_READ_BUILTIN | LTT_READ_CHECK,
					.problem = readback_problem, .problem_arg = &rb };
	const char *paths[1] = { out };
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[512];
	int ret = ltt_reader_open(&r, paths, 1, &o, err, sizeof(err));

	if (ret) {
		ltt_tool_error("recover", "%s: incomplete: the trace written cannot be read back: %s", out, err);
		return 1;
	}
	while ((ret = ltt_reader_next(r, &ev)) > 0)
		;
	ltt_reader_close(r);
	if (!rb.problems && !ret)
		return 0;
	if (!rb.problems)
		ltt_tool_error("recover", "%s: incomplete: reading it back fails: %s", out, strerror(-ret));
	else
		ltt_tool_error("recover", "%s: incomplete: reading it back finds %llu problem%s (ltt check lists "
			       "them), the first: %s", out, (unsigned long long)rb.problems,
			       rb.problems == 1 ? "" : "s", rb.first);
	return 1;
}

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "keep", no_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *file;
	char found[4096];
	struct stat sb;
	struct recover_file_info fi;
	struct recover_stats st;
	char err[512] = "";
	int do_list = 0, keep = 0, c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:lk", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'k': keep = 1; break;
		case 'l': do_list = 1; break;
		default: return ltt_cli_option_error("recover", ltt_cmd_recover.usage, c, argc, argv, opts);
		}
	}
	if (do_list) {
		const char *dir = optind < argc ? argv[optind] : getenv("LTT_SHM_DIR");

		return list(dir && *dir ? dir : "/dev/shm");
	}
	if (optind + 1 != argc || !out) {
		fputs(ltt_cmd_recover.usage, stderr);
		return 2;
	}
	file = argv[optind];
	if (!stat(file, &sb) && S_ISDIR(sb.st_mode)) {
		if (only_dead(file, found, sizeof(found)))
			return 1;
		file = found;
	}
	rc = recover_probe(file, &fi);
	if (rc) {
		ltt_tool_error("recover", "%s: %s", file, strerror(-rc));
		return 1;
	}
	if (fi.state == RECOVER_BAD) {
		ltt_tool_error("recover", "%s: %s", file, fi.why);
		return 1;
	}
	if (fi.state == RECOVER_RUNNING) {
		ltt_tool_error("recover", "%s: process %d (%s) is still running; its file is not touched", file,
			       fi.pid, fi.program);
		return 1;
	}
	if (fi.state == RECOVER_STOPPED) {
		ltt_tool_error("recover", "%s: process %d (%s) stopped recording cleanly; its blocks were released "
			       "(the snapshot at exit is in its trace directory)", file, fi.pid, fi.program);
		return 1;
	}
	/* dead: its `ltt snapshot` entry, if the kill left it, is stale (a process given its pid later
	 * would meet it) */
	recover_forget_registry(&fi);
	rc = recover_rebuild(file, out, &st, err, sizeof(err));
	if (rc) {
		ltt_tool_error("recover", "%s: %s", file, err[0] ? err : strerror(-rc));
		return 1;
	}
	printf("%s: %llu blocks (%llu cut at their last committed event), %llu torn events dropped, "
	       "%llu blocks (%llu events) overwritten before", out, (unsigned long long)st.blocks,
	       (unsigned long long)st.salvaged, (unsigned long long)st.torn,
	       (unsigned long long)st.overwritten_blocks, (unsigned long long)st.overwritten_events);
	if (st.opening)	/* the kill came while a block was being opened: not damage */
		printf(", %llu blocks being opened at the death (nothing committed in them; their opener's "
		       "event is among the torn)", (unsigned long long)st.opening);
	putchar('\n');
	/* Something could not be recovered (damage, not the torn events of a kill): the trace written
	 * is incomplete, and the status says so (doc/flight-recorder.md). */
	if (st.lost_facilities || st.unreadable_blocks) {
		fflush(stdout);
		ltt_tool_error("recover", "%s: incomplete: %llu facility problems (their events are not "
			       "decoded), %llu damaged blocks left out", out,
			       (unsigned long long)st.lost_facilities, (unsigned long long)st.unreadable_blocks);
		return 1;
	}
	fflush(stdout);
	rc = read_back(out);
	/* everything it held is in TRACE, read back without a problem: the file (the whole rings'
	 * size, often in tmpfs, i.e. memory) goes, unless --keep */
	if (!rc && !keep) {
		if (unlink(file))
			ltt_tool_error("recover", "%s: cannot remove it: %s (the trace is complete)", file, strerror(errno));
		else
			printf("%s: removed (recovered into %s; --keep keeps it)\n", file, out);
	}
	return rc;
}

const struct ltt_cmd ltt_cmd_recover = {
	.name = "recover",
	.summary = "rebuild a trace from the ring file of a flight recorder that died (LTT_SHM_DIR)",
	.usage = "usage: ltt recover [--keep] FILE|DIR -o TRACE\n"
		 "       ltt recover --list [DIR]\n\n"
		 "Rebuilds the trace directory TRACE (which must not exist) from FILE, the rings a flight-mode\n"
		 "process kept under LTT_SHM_DIR, after the process died (SIGKILL, the OOM killer): every event\n"
		 "committed before the death; events reserved but not committed are dropped and counted\n"
		 "(events_lost, cause torn). The file of a process still running is not touched. Given a\n"
		 "directory, recovers the one ring file of a dead process in it.\n"
		 "--list prints the ring files of DIR (default $LTT_SHM_DIR, else /dev/shm) with their state:\n"
		 "dead (recoverable), running, stopped, or bad.\n\n"
		 "The trace written is read back with the reader (as ltt check does): the exit status is 0 only\n"
		 "when it reads without a problem; else 1, with the first problem found (what could not be\n"
		 "recovered) on the last line. With status 0, FILE is removed (--keep keeps it).\n",
	.run = run,
};
