/* SPDX-License-Identifier: MIT */
/* ltt record: runs a program linked with libltt with LTT_TRACE and friends set, and prints where its
 * trace (and those of processes it started) went (doc/recorder.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "common/argspec.h"
#include "common/perf_page.h"
#include "common/settings.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "eventdefs/rules_match.h"
#include "after.h"
#include "forward.h"
#include "preload.h"

extern const struct ltt_cmd ltt_cmd_record;	/* at the end of this file */

/* The LTT_* settings the options set, in the order given: each option value is checked by the parser
 * libltt reads the variable with (common/settings.h), before the program starts; the child sets them. */
#define MAX_SETS 32
struct setting {
	const char *opt;	/* "--rotate-size": the long name, for the message */
	const char *env;	/* "LTT_ROTATE_SIZE" */
	const char *value;
};
struct settings {
	struct setting s[MAX_SETS];
	unsigned n;
};

/* Sets env to value (a later option of the same variable wins, as on a command line). */
static void set(struct settings *st, const char *opt, const char *env, const char *value)
{
	for (unsigned i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].env, env)) {
			st->s[i].opt = opt, st->s[i].value = value;
			return;
		}
	if (st->n < MAX_SETS)
		st->s[st->n++] = (struct setting){ opt, env, value };
}

static const char *setting(const struct settings *st, const char *env)
{
	for (unsigned i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].env, env))
			return st->s[i].value;
	return NULL;
}

/* A setting's value is an event or symbol rule list (LTT_EVENTS, LTT_FUNCTIONS but 0 and 1). */
static int rules_setting(const char *env, const char *value)
{
	return !strcmp(env, "LTT_EVENTS") || (!strcmp(env, "LTT_FUNCTIONS") && strcmp(value, "0") && strcmp(value, "1"));
}

/* Every option value, then every LTT_* variable inherited and not set by an option, checked as libltt
 * checks it: 0, or 2 with one line said ("--OPTION=VALUE: FORM (LTT_NAME)", "LTT_NAME=VALUE: FORM"). */
static int check_settings(const struct settings *st)
{
	char why[400], shown[512];

	for (unsigned i = 0; i < st->n; i++) {
		const struct setting *t = &st->s[i];

		if (rules_setting(t->env, t->value)) {
			if (ltt_rules_check(t->value, why, sizeof(why)) == 0)
				continue;
			ltt_env_why(shown, sizeof(shown), t->opt, t->value, why);
			ltt_tool_error("record", "%s (%s)", shown, t->env);
			return 2;
		}
		if (ltt_env_check(t->env, t->value, why, sizeof(why)) == 0)
			continue;
		ltt_env_why(why, sizeof(why), t->opt, t->value, ltt_env_form(t->env));
		ltt_tool_error("record", "%s (%s)", why, t->env);
		return 2;
	}
	for (unsigned k = 0; k < LTT_ENV_NVARS + LTT_ENV_NWORDS + 2; k++) {
		const char *env = k < LTT_ENV_NVARS ? ltt_env_vars[k].name :
				  k < LTT_ENV_NVARS + LTT_ENV_NWORDS ? ltt_env_words[k - LTT_ENV_NVARS].name :
				  k == LTT_ENV_NVARS + LTT_ENV_NWORDS ? "LTT_EVENTS" : "LTT_FUNCTIONS";
		const char *v = getenv(env);
		int bad;

		if (!v || !*v || setting(st, env))
			continue;
		bad = rules_setting(env, v) ? ltt_rules_check(v, why, sizeof(why)) : ltt_env_check(env, v, why, sizeof(why));
		if (bad && rules_setting(env, v))
			ltt_env_why(shown, sizeof(shown), env, v, why);
		if (bad) {
			ltt_tool_error("record", "%s (in the environment)", rules_setting(env, v) ? shown : why);
			return 2;
		}
	}
	return 0;
}

/* -A and -R joined by ';' (each option one spec or a list), as LTT_FUNCTIONS_ARGS and _RETVAL take. */
struct spec_list {
	char text[LTT_ARG_LIST_MAX + 1];
	size_t len;
};

static int add_spec(struct spec_list *l, const char *spec)
{
	size_t n = strlen(spec);

	if (l->len + n + 1 > LTT_ARG_LIST_MAX) {
		ltt_tool_error("record", "-A/-R: the specs take more than %d bytes", LTT_ARG_LIST_MAX);
		return -1;
	}
	if (l->len)
		l->text[l->len++] = ';';
	memcpy(l->text + l->len, spec, n + 1);
	l->len += n;
	return 0;
}

/* The specs checked by libltt's parser (common/argspec.h) and set; refused without --functions, with
 * --functions-min-ns, and on a program whose hooks are -finstrument-functions' only (the values are
 * not at its hooks: recorder/func_args.c). 0, or 2 said. */
static int check_specs(struct settings *st, const char *funcs, const char *prog, const struct spec_list *a,
		       const struct spec_list *r)
{
	char why[512];

	if (!funcs) {
		ltt_tool_error("record", "-A/--argument and -R/--retval go with --functions");
		return 2;
	}
	if (setting(st, "LTT_FUNCTIONS_MIN_NS")) {
		ltt_tool_error("record",
			       "-A/--argument and -R/--retval do not go with --functions-min-ns (a call "
			       "is recorded at its exit there, its arguments gone)");
		return 2;
	}
	if ((a->len && ltt_argspec_parse(a->text, 0, NULL, NULL, why, sizeof(why))) ||
	    (r->len && ltt_argspec_parse(r->text, 1, NULL, NULL, why, sizeof(why)))) {
		int bad_a = a->len && ltt_argspec_parse(a->text, 0, NULL, NULL, why, sizeof(why));

		ltt_tool_error("record", "%s %s", bad_a ? "-A" : "-R", why);
		return 2;
	}
	if (prog && preload_hooks(prog) == PRELOAD_HOOK_CYG) {
		ltt_tool_error("record", "-A, -R: %s is built with -finstrument-functions, whose hooks run after "
			       "the compiler moved the arguments and before it sets the return value: they cannot be "
			       "recorded there; build it with -pg (or -pg -mfentry)", prog);
		return 2;
	}
	if (a->len)
		set(st, "-A", "LTT_FUNCTIONS_ARGS", a->text);
	if (r->len)
		set(st, "-R", "LTT_FUNCTIONS_RETVAL", r->text);
	return 0;
}

/* A flight-recorder trace (ltt_mode="flight" in its info/system.xml): its data is in snapshot-NNNN/. */
static int is_flight(const char *dir)
{
	struct ltt_system *sys;
	const char *mode;
	int flight;

	if (ltt_system_read(dir, &sys, NULL, 0))
		return 0;
	mode = ltt_system_attr(sys, "ltt_mode");
	flight = mode && !strcmp(mode, "flight");
	ltt_system_free(sys);
	return flight;
}

static int snap_filter(const struct dirent *d)
{
	return !strncmp(d->d_name, "snapshot-", 9) && d->d_name[9] >= '0' && d->d_name[9] <= '9';
}

/* Prints each snapshot of the flight trace dir (each a trace), in the order taken. */
static void print_snapshots(const char *dir)
{
	struct dirent **e = NULL;
	int n = scandir(dir, &e, snap_filter, versionsort), shown = 0;

	for (int i = 0; i < n; i++) {
		if (strstr(e[i]->d_name, ".part"))
			fprintf(stderr, "ltt record: incomplete snapshot (cut short) %s/%s\n", dir, e[i]->d_name);
		else
			fprintf(stderr, "ltt record: snapshot written to %s/%s\n", dir, e[i]->d_name);
		shown++;
		free(e[i]);
	}
	free(e);
	if (!shown)
		fprintf(stderr, "ltt record: flight trace %s: no snapshot taken (none at exit with "
		       "LTT_SNAPSHOT_AT_EXIT=0, or the program was killed)\n", dir);
}

/* Whether perf publishes its clock's conversion to TSC cycles (struct perf_event_mmap_page's
 * cap_user_time_zero), asked of a dummy event of this process. Without it, kernel events make libltt
 * stamp the whole trace with CLOCK_MONOTONIC (recorder/kernel_clock.c), which nearly doubles what a
 * function hook costs (46 -> 78 ns per call and return on a guest without it, doc/performance.md):
 * --functions records the threads' switches by default only where they cost nothing on the hooks. */
static int perf_tsc_conversion(void)
{
	const void *m;
	size_t len;
	int fd = ltt_perf_dummy_page(&m, &len), ok;

	if (fd < 0)
		return 0;
	ok = ((const volatile struct perf_event_mmap_page *)m)->cap_user_time_zero;
	munmap((void *)m, len);
	close(fd);
	return ok;
}

/* Whether the trace lines[i], reported when it began, was later moved into the trace of the image its
 * process exec'd ("moved PATH\tNEW", recorder/exec.c): the exec'd image's trace is the one named, the
 * part before the exec is NEW inside it (the same path reported again after the move is a new trace). */
static int record_moved(char **lines, size_t n, size_t i)
{
	size_t len = strlen(lines[i]);

	for (size_t j = i + 1; j < n; j++) {
		if (!strcmp(lines[j], lines[i]))
			return 0;
		if (!strncmp(lines[j], "moved ", 6) && !strncmp(lines[j] + 6, lines[i], len) &&
		    lines[j][6 + len] == '\t')
			return 1;
	}
	return 0;
}

/* Whether PROGRAM is a wrapper of a program with function hooks (taskset -c 0 ./prog, env X=1 prog,
 * sh -c './prog args'): an argument after it, or the first word of one, names such a program. The
 * wrapper's libltt hands the recording on at its exec (recorder/exec.c): no advice to rebuild it. */
static int wrapped_hooks(int argc, char **argv)
{
	char word[PATH_MAX];

	for (int i = 1; i < argc && i < 32; i++) {
		size_t n = strcspn(argv[i], " \t");

		if (!n || n >= sizeof(word) || argv[i][0] == '-')
			continue;
		memcpy(word, argv[i], n);
		word[n] = 0;
		if (preload_hooks(word) == 1)
			return 1;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "mode", required_argument, NULL, 'm' },
		{ "block-size", required_argument, NULL, 'b' },
		{ "blocks", required_argument, NULL, 'n' },
		{ "cpu-sample", required_argument, NULL, 'C' },
		{ "stack-sample", required_argument, NULL, 'S' },
		{ "rotate-size", required_argument, NULL, 0x100 },
		{ "rotate-seconds", required_argument, NULL, 'T' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "flush-ms", required_argument, NULL, 'F' },
		{ "events", required_argument, NULL, 'e' },
		{ "waits", no_argument, NULL, 'W' },
		{ "functions", optional_argument, NULL, 'f' },
		{ "functions-depth", required_argument, NULL, 'D' },
		{ "functions-min-ns", required_argument, NULL, 'N' },
		{ "kernel", optional_argument, NULL, 'K' },
		{ "system", no_argument, NULL, 'Y' },
		{ "kernel-buffer", required_argument, NULL, 'B' },
		{ "any-binary", no_argument, NULL, 0x101 },
		{ "argument", required_argument, NULL, 'A' },
		{ "retval", required_argument, NULL, 'R' },
		{ "no-libcall", no_argument, NULL, 0x102 },
		{ "blocking", optional_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	struct settings st = { .n = 0 };
	struct spec_list argspec = { 0 }, retspec = { 0 };
	const char *out = "ltt-traces/", *funcs = NULL, *kernel = NULL, *needs;
	char lib[PATH_MAX];
	int system_scope = 0;
	char report[] = "/tmp/ltt-record-XXXXXX", line[4096], why[256];
	int any = 0, linked;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_quit;
	unsigned found = 0;
	char **lines = NULL;
	size_t nlines = 0;
	int c, fd, status, rc;
	pid_t pid;
	FILE *f;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:m:b:n:e:A:R:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'm': set(&st, "--mode", "LTT_MODE", optarg); break;
		case 'b': set(&st, "--block-size", "LTT_BLOCK_SIZE", optarg); break;
		case 'n': set(&st, "--blocks", "LTT_BLOCKS", optarg); break;
		case 'C': set(&st, "--cpu-sample", "LTT_CPU_SAMPLE_MS", optarg); break;
		case 'S': set(&st, "--stack-sample", "LTT_STACK_SAMPLE_HZ", optarg); break;
		case 0x100: set(&st, "--rotate-size", "LTT_ROTATE_SIZE", optarg); break;
		case 'T': set(&st, "--rotate-seconds", "LTT_ROTATE_SECONDS", optarg); break;
		case 'M': set(&st, "--max-size", "LTT_MAX_SIZE", optarg); break;
		case 'F': set(&st, "--flush-ms", "LTT_FLUSH_MS", optarg); break;
		case 'e': set(&st, "--events", "LTT_EVENTS", optarg); break;
		case 'W': set(&st, "--waits", "LTT_WAITS", "1"); break;
		case 'f': funcs = optarg ? optarg : ""; break;
		case 'D': set(&st, "--functions-depth", "LTT_FUNCTIONS_DEPTH", optarg); break;
		case 'N': set(&st, "--functions-min-ns", "LTT_FUNCTIONS_MIN_NS", optarg); break;
		case 'K': kernel = optarg ? optarg : "sched,syscalls"; break;
		case 'Y': system_scope = 1; break;
		case 'B': set(&st, "--kernel-buffer", "LTT_KERNEL_BUFFER", optarg); break;
		case 0x101: any = 1; break;
		case 0x102: set(&st, "--no-libcall", "LTT_FUNCTIONS_LIBCALL", "0"); break;
		case 'A': if (add_spec(&argspec, optarg)) return 2; break;
		case 'R': if (add_spec(&retspec, optarg)) return 2; break;
		case 'L': set(&st, "--blocking", "LTT_BLOCKING", optarg ? optarg : "1000"); break;	/* LTT_BLOCKING_DEFAULT_MS */
		default:
			return ltt_cli_option_error("record", ltt_cmd_record.usage, c, argc, argv, longopts);
		}
	}
	/* --functions=RULES sets LTT_FUNCTIONS=RULES; --functions alone keeps the rules of an inherited
	 * LTT_FUNCTIONS (LTT_FUNCTIONS='my_*' ltt record --functions), else records every function */
	if (funcs) {
		const char *inherited = getenv("LTT_FUNCTIONS");

		if (!*funcs)
			funcs = inherited && *inherited && strcmp(inherited, "0") ? inherited : "1";
		set(&st, "--functions", "LTT_FUNCTIONS", funcs);
	}
	/* kernel events (doc/recorder.md "Kernel events"): --system alone records sched,syscalls */
	if (kernel || system_scope)
		set(&st, "--kernel", "LTT_KERNEL", kernel ? kernel : "sched,syscalls");
	else if (funcs && !getenv("LTT_KERNEL") && perf_tsc_conversion())
		/* the threads' own switches, for any user: the time each function spent off the CPU */
		set(&st, "--functions", "LTT_KERNEL", "switch");
	if (system_scope)
		set(&st, "--system", "LTT_KERNEL_SCOPE", "system");
	/* -A, -R: LTT_FUNCTIONS_ARGS, LTT_FUNCTIONS_RETVAL */
	if (argspec.len || retspec.len) {
		if ((rc = check_specs(&st, funcs, argv[optind < argc ? optind : 0], &argspec, &retspec)))
			return rc;
	}
	if ((rc = check_settings(&st)))
		return rc;
	if ((setting(&st, "LTT_ROTATE_SIZE") || setting(&st, "LTT_ROTATE_SECONDS")) && setting(&st, "LTT_MODE") &&
	    !strcmp(setting(&st, "LTT_MODE"), "flight")) {
		ltt_tool_error("record", "--rotate-size and --rotate-seconds are for discard mode");
		return 2;
	}
	if (setting(&st, "LTT_BLOCKING") && strcmp(setting(&st, "LTT_BLOCKING"), "0") && setting(&st, "LTT_MODE") &&
	    !strcmp(setting(&st, "LTT_MODE"), "flight")) {
		ltt_tool_error("record", "--blocking is for discard mode: a flight recorder never blocks (it "
			       "overwrites its oldest blocks)");
		return 2;
	}
	if (setting(&st, "LTT_MAX_SIZE") && !setting(&st, "LTT_ROTATE_SIZE") && !setting(&st, "LTT_ROTATE_SECONDS")) {
		ltt_tool_error("record", "--max-size needs --rotate-size or --rotate-seconds (it removes whole chunks)");
		return 2;
	}
	if ((setting(&st, "LTT_FUNCTIONS_DEPTH") || setting(&st, "LTT_FUNCTIONS_MIN_NS")) && !funcs) {
		ltt_tool_error("record", "--functions-depth and --functions-min-ns go with --functions");
		return 2;
	}
	if (optind >= argc) {
		ltt_tool_error("record", "no program to run (ltt record [OPTIONS] -- PROGRAM ARGS...)");
		return 2;
	}
	/* function tracing in a program not linked with libltt (-pg), or --any-binary: libltt.so
	 * preloaded (preload.h, the one mechanism of ltt record); its constructor starts recording */
	linked = preload_linked(argv[optind]);
	lib[0] = 0;
	/* every option that records through libltt preloads it, as perf record and uftrace record take
	 * any binary (issue 37, point 4) */
	needs = funcs ? "--functions" : any ? "--any-binary" : setting(&st, "LTT_STACK_SAMPLE_HZ") ? "--stack-sample" :
		setting(&st, "LTT_CPU_SAMPLE_MS") ? "--cpu-sample" : setting(&st, "LTT_KERNEL") ? "--kernel" :
		setting(&st, "LTT_WAITS") ? "--waits" : NULL;
	if (needs && linked == 0) {
		if (preload_library(lib, sizeof(lib), why, sizeof(why))) {
			ltt_tool_error("record", "%s: %s is not linked with libltt and %s", needs, argv[optind], why);
			return 1;
		}
		fprintf(stderr, "ltt record: %s is not linked with libltt: %s preloaded (%s)\n", argv[optind], lib, needs);
	}
	if (funcs && preload_hooks(argv[optind]) == 0 && !wrapped_hooks(argc - optind, argv + optind))
		fprintf(stderr, "ltt record: --functions: %s calls no function hook (mcount, __fentry__, "
			"__cyg_profile_func_enter): its own functions cannot be recorded; build it with -pg "
			"(or -pg -mfentry) or with -finstrument-functions (libraries it loads may have them)\n",
			argv[optind]);
	fd = mkstemp(report);
	if (fd < 0) {
		ltt_tool_error("record", "%s: %s", report, strerror(errno));
		return 1;
	}
	close(fd);
	sigaction(SIGQUIT, &ign, &old_quit);
	forward_install();	/* SIGINT, SIGTERM, SIGHUP, the snapshot signal: to the program */
	pid = fork();
	if (pid == 0) {
		forward_child();
		sigaction(SIGQUIT, &old_quit, NULL);
		setenv("LTT_TRACE", out, 1);
		setenv("LTT_RECORD_REPORT", report, 1);
		for (unsigned i = 0; i < st.n; i++)
			setenv(st.s[i].env, st.s[i].value, 1);
		if (lib[0] && preload_set(lib)) {
			ltt_tool_error("record", "LD_PRELOAD: out of memory");
			_exit(127);
		}
		execvp(argv[optind], argv + optind);
		ltt_tool_error("record", "%s: %s", argv[optind], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		ltt_tool_error("record", "fork: %s", strerror(errno));
		unlink(report);
		return 1;
	}
	forward_to(pid);
	fprintf(stderr, "ltt record: pid %d runs %s\n", (int)pid, argv[optind]);
	if ((rc = forward_wait(pid, &status))) {
		ltt_tool_error("record", "waiting for %s: %s", argv[optind], strerror(-rc));
		status = W_EXITCODE(1, 0);
	}
	forward_restore();
	record_after(pid, out, argv[optind]);	/* its registry entry, its rings' file */
	sigaction(SIGQUIT, &old_quit, NULL);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	f = fopen(report, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char **grown = realloc(lines, (nlines + 1) * sizeof(*lines));

		line[strcspn(line, "\n")] = 0;
		if (!grown || !(grown[nlines] = strdup(line))) {
			lines = grown ? grown : lines;
			break;
		}
		lines = grown;
		nlines++;
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < nlines; i++) {
		if (!strncmp(lines[i], "lost ", 5)) { /* libltt's loss line (recorder/loss_report.c) */
			fprintf(stderr, "ltt record: %s\n", lines[i] + 5);
			continue;
		}
		if (!strncmp(lines[i], "moved ", 6) || record_moved(lines, nlines, i))
			continue; /* a trace before an exec, now in the exec'd image's */
		if (is_flight(lines[i]))
			print_snapshots(lines[i]);
		else
			fprintf(stderr, "ltt record: trace written to %s\n", lines[i]);
		found++;
	}
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	unlink(report);
	if (!found && linked == 0 && !lib[0])	/* not an error of ltt's: the program's status is kept */
		fprintf(stderr, "ltt record: no trace written: %s is not linked with libltt "
			"(--any-binary preloads libltt.so into it)\n", argv[optind]);
	else if (!found)
		fprintf(stderr, "ltt record: no trace written by %s\n", argv[optind]);
	if (!WIFEXITED(status))
		ltt_tool_error("record", "%s: killed by signal %d", argv[optind], WTERMSIG(status));
	return rc;
}

const struct ltt_cmd ltt_cmd_record = {
	.name = "record",
	.summary = "run a program linked with libltt (or any program, --any-binary) and record a trace of it",
	.usage = "usage: ltt record [-o|--output DIR] [--mode discard|flight] [--block-size N] [--blocks N] [--cpu-sample MS] "
		 "[--stack-sample HZ] [--rotate-size N] [--rotate-seconds N] [--max-size N] [--flush-ms N] [--events RULES] [--waits] "
		 "[--functions[=RULES] [--functions-depth N] [--functions-min-ns NS] [-A|--argument SPEC]... [-R|--retval SPEC]... [--no-libcall]] [--kernel[=LIST]] [--system] [--kernel-buffer N] [--any-binary] "
		 "[--blocking[=MS]] -- PROGRAM ARGS...\n"
		 "\n"
		 "Runs PROGRAM with LTT_TRACE=DIR (default ./ltt-traces/) and LTT_MODE,\n"
		 "LTT_BLOCK_SIZE, LTT_BLOCKS, LTT_EVENTS set from the options, then prints where each trace went on stderr\n"
		 "(stdout is the program's alone, passed through untouched). Where the trace goes (doc/recorder.md):\n"
		 "DIR ending in '/' (made if missing) or an existing directory that is not a trace: each traced\n"
		 "process writes DIR/PROGRAM-PID-TIME; DIR missing: DIR is the trace; DIR a trace already: the\n"
		 "trace is DIR.1 (DIR.2, ...), said on stderr, never written into DIR.\n"
		 "In flight mode each snapshot is a trace of its own, DIR/snapshot-NNNN: those are printed.\n"
		 "Exits with the program's status (128 + signal if it was killed). Prints the program's pid on\n"
		 "stderr and forwards SIGINT, SIGTERM, SIGHUP and the snapshot signal (LTT_SNAPSHOT_SIGNAL,\n"
		 "SIGUSR2 by default) to it: `kill -USR2 PID-OF-LTT-RECORD` takes a flight snapshot.\n"
		 "\n"
		 "  -o, --output DIR      where traces go\n"
		 "  -m, --mode MODE       discard (default: the consumer writes blocks as they fill) or flight\n"
		 "  -b, --block-size N    block size, a power of two in [4096, 256M] (k and M suffixes)\n"
		 "  -n, --blocks N        blocks per CPU ring, a power of two in [2, 65536]\n"
		 "      --cpu-sample MS   record the CPU usage of the process and of each thread every MS ms\n"
		 "                        (LTT_CPU_SAMPLE_MS)\n"
		 "      --stack-sample HZ sample each thread's stack HZ times per second of its CPU time\n"
		 "                        (LTT_STACK_SAMPLE_HZ; ltt stats --profile, ltt dump --format=tracelog)\n"
		 "      --rotate-size N   discard: the trace becomes DIR/chunk-NNNN/ directories, a new one\n"
		 "                        after N bytes (k, M, G suffixes; at least 1M); LTT_ROTATE_SIZE\n"
		 "      --rotate-seconds N  ... or after N seconds; LTT_ROTATE_SECONDS\n"
		 "      --max-size N      remove the oldest chunks while the chunks take more than N bytes\n"
		 "                        (each listed in DIR/chunks-removed); LTT_MAX_SIZE\n"
		 "      --blocking[=MS]   discard: a thread whose ring is full waits for the consumer (at most MS\n"
		 "                        ms, default 1000, then drops, counted) instead of dropping: a complete\n"
		 "                        record, the program slowed to the disk's pace; =0 never waits. The\n"
		 "                        default with --functions; never in flight mode. LTT_BLOCKING\n"
		 "      --flush-ms N      discard: write a partly filled block after N ms without a full one\n"
		 "                        (default 1000; 0: never); LTT_FLUSH_MS\n"
		 "  -e, --events RULES    which events record (LTT_EVENTS): globs on FACILITY.EVENT, '-' excludes,\n"
		 "                        the last matching rule wins: 'jobs.*,-jobs.submit' (doc/recorder.md)\n"
		 "      --waits           record the program's waits on locks, condition variables and semaphores\n"
		 "                        of 10 µs and more (LTT_WAITS=1; ltt stats --waits; doc/recorder.md)\n"
		 "      --functions[=RULES]  record every function's entry and exit (LTT_FUNCTIONS) in a program\n"
		 "                        built with -finstrument-functions and linked with libltt, or with -pg\n"
		 "                        (-mfentry or not; x86-64), which need not be: libltt.so is preloaded.\n"
		 "                        RULES: symbol globs, '-' excludes: 'my_*,-my_hot_leaf' (default: all)\n"
		 "      --functions-depth N  record calls at most N deep (LTT_FUNCTIONS_DEPTH)\n"
		 "      --functions-min-ns NS  record only calls of at least NS ns, each as one func.call at its\n"
		 "                        exit (LTT_FUNCTIONS_MIN_NS; ltt stats --functions, ltt dump --format=calls)\n"
		 "  -A, --argument SPEC   record arguments, uftrace's syntax (LTT_FUNCTIONS_ARGS):\n"
		 "                        'fadd@arg1/i32,arg2/i32', 'greet@arg1/s', 'f@fparg1'; FMT i, u, x with\n"
		 "                        8/16/32/64, s, c, f; repeatable; -pg builds (ltt dump --format=calls)\n"
		 "  -R, --retval SPEC     record return values: 'fadd@retval/i32' (LTT_FUNCTIONS_RETVAL)\n"
		 "      --no-libcall      do not record the program's library calls through its PLT (recorded\n"
		 "                        by default with --functions; LTT_FUNCTIONS_LIBCALL=0)\n"
		 "      --kernel[=LIST]   also record the kernel's events of the program's threads (LTT_KERNEL):\n"
		 "                        a comma list of sched, syscalls, irq, faults, switch; alone: sched,syscalls.\n"
		 "                        Without root or CAP_PERFMON only the threads' own context switches;\n"
		 "                        what is missing is said on stderr and in the trace (ltt stats)\n"
		 "      --system          kernel events of every CPU and process, with a state dump of every\n"
		 "                        thread at start (LTT_KERNEL_SCOPE=system; root or CAP_PERFMON)\n"
		 "      --kernel-buffer N perf's ring per CPU, a power of two from 8k to 1G (default 4M;\n"
		 "                        LTT_KERNEL_BUFFER)\n"
		 "      --any-binary      a PROGRAM not linked with libltt gets libltt.so preloaded (LD_PRELOAD,\n"
		 "                        inherited by its children, which record too): its CPU usage, stack\n"
		 "                        samples with symbols and threads are recorded. Without it such a\n"
		 "                        program runs untraced (its status is still ltt record's)\n",
	.run = run,
};
