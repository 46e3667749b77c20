/* SPDX-License-Identifier: MIT */
/* ltt export: writes traces in the formats of other viewers (export.h, doc/viewing.md). This file is
 * the driver: options, OUT and its temporary name, the event loop, the progress bar, exit codes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/parse.h"
#include "common/private.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "toolkit/export.h"
#include "toolkit/par.h"
#include "toolkit/reader_common.h"

extern const struct ltt_cmd ltt_cmd_export;	/* at the end of this file */

#define LTT_EXP(n) extern const struct ltt_exporter ltt_exp_##n;
#include "ltt-exps.h"
#undef LTT_EXP

static const struct ltt_exporter *const exporters[] = {
#define LTT_EXP(n) &ltt_exp_##n,
#include "ltt-exps.h"
#undef LTT_EXP
	NULL
};

static volatile sig_atomic_t interrupted;
static const int catch_sigs[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int sig)
{
	interrupted = sig;
}

static const struct ltt_exporter *find_exporter(const char *name)
{
	for (size_t i = 0; exporters[i]; i++)
		if (!strcmp(exporters[i]->name, name))
			return exporters[i];
	return NULL;
}

struct export_opts {
	const struct ltt_exporter *exp;
	struct reader_filter filter;
	const char *out;
	int force;
	unsigned threads;	/* --threads (0: automatic) */
};

#define MAX_FMT_OPTS 32
#define FMT_OPT_BASE 0x1000	/* getopt codes of the formats' own options: base + index in fmt_opts */

/* The formats' own options (export_option), in the order of exporters[]. */
struct fmt_opt {
	const struct ltt_exporter *exp;
	unsigned index;
	const char *value;	/* as given, NULL when not given */
};

static unsigned fmt_opts_collect(struct fmt_opt *fo, struct option *lo, unsigned nlo)
{
	unsigned n = 0;

	for (size_t i = 0; exporters[i]; i++)
		for (unsigned k = 0; exporters[i]->options && exporters[i]->options[k].name && n < MAX_FMT_OPTS; k++) {
			fo[n] = (struct fmt_opt){ .exp = exporters[i], .index = k };
			lo[nlo + n] = (struct option){ exporters[i]->options[k].name, required_argument, NULL,
						       (int)(FMT_OPT_BASE + n) };
			n++;
		}
	lo[nlo + n] = (struct option){ NULL, 0, NULL, 0 };
	return n;
}

static int parse_args(int argc, char **argv, struct export_opts *o)
{
	static const struct option base[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'O' },
		{ "threads", required_argument, NULL, 'T' },
		READER_FILTER_LONGOPTS,
	};
	struct option lo[sizeof(base) / sizeof(base[0]) + MAX_FMT_OPTS + 1];
	struct fmt_opt fo[MAX_FMT_OPTS];
	unsigned nfo;
	int c, f;

	memcpy(lo, base, sizeof(base));
	nfo = fmt_opts_collect(fo, lo, sizeof(base) / sizeof(base[0]));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":F:o:" READER_FILTER_SHORTOPTS, lo, NULL)) != -1) {
		if (c >= FMT_OPT_BASE && c < FMT_OPT_BASE + (int)nfo) {
			fo[c - FMT_OPT_BASE].value = optarg;
			continue;
		}
		switch (c) {
		case 'F':
			o->exp = find_exporter(optarg);
			if (!o->exp) {
				const char *names[sizeof(exporters) / sizeof(exporters[0])], *near = NULL;
				size_t n = 0, len = strlen(optarg);

				for (; exporters[n]; n++)
					names[n] = exporters[n]->name;
				/* the nearest name, or the only one the word begins ("chrome": chrome-json) */
				for (size_t i = 0; i < n && len >= 3; i++)
					if (!strncmp(names[i], optarg, len))
						near = near ? "" : names[i];
				if (!near || !*near)
					near = ltt_cli_nearest(optarg, names, n);
				if (near)
					ltt_tool_error("export", "--format=%s: unknown format; did you mean --format=%s? "
						       "(see ltt export --help)", optarg, near);
				else
					ltt_tool_error("export", "--format=%s: unknown format (see ltt export --help)", optarg);
				return -1;
			}
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'O':
			o->force = 1;
			break;
		case 'T':
			if (reader_threads_option("export", optarg, &o->threads))
				return -1;
			break;
		case '?':
		case ':':
			ltt_cli_option_error("export", ltt_cmd_export.usage, c, argc, argv, lo);
			return -1;
		default:
			f = reader_filter_option(&o->filter, "export", c, optarg);
			if (f > 0)
				break;
			if (f < 0)
				return -1;
			ltt_tool_error("export", "unknown or incomplete option '%s' (see ltt export --help)",
				       argv[optind - 1]);
			return -1;
		}
	}
	if (!o->exp) {
		ltt_tool_error("export", "no --format given (see ltt export --help)");
		return -1;
	}
	for (unsigned i = 0; i < nfo; i++) {
		if (!fo[i].value)
			continue;
		if (fo[i].exp != o->exp) {
			ltt_tool_error("export", "--%s is an option of --format=%s only", lo[sizeof(base) / sizeof(base[0]) + i].name,
				       fo[i].exp->name);
			return -1;
		}
		if (o->exp->option(fo[i].index, fo[i].value))
			return -1;
	}
	if (optind >= argc) {
		ltt_tool_error("export", "no trace given (see ltt export --help)");
		return -1;
	}
	return optind;
}

/* The default OUT: the first trace's name without its archive suffix, plus the format's suffix. */
static char *default_out(const char *trace, const char *suffix)
{
	static const char *const strip[] = { ".tar.gz", ".tgz", ".tar", NULL };
	size_t n = strlen(trace), b;
	char *s;

	while (n > 1 && trace[n - 1] == '/')
		n--;
	for (b = n; b > 0 && trace[b - 1] != '/'; b--)
		;
	for (size_t i = 0; strip[i]; i++) {
		size_t l = strlen(strip[i]);

		if (n - b > l && !strcmp(trace + n - l, strip[i])) {
			n -= l;
			break;
		}
	}
	if (n == b || (n - b == 1 && trace[b] == '.') || (n - b == 2 && !strncmp(trace + b, "..", 2))) {
		b = 0;	/* "." or "/": a name of its own */
		trace = "trace";
		n = 5;
	}
	if (asprintf(&s, "%.*s%s", (int)(n - b), trace + b, suffix) < 0)
		return NULL;
	return s;
}

/* A name beside path: "DIR/.BASE.TAG-PID". */
static char *beside(const char *path, const char *tag)
{
	const char *base = strrchr(path, '/');
	char *s;

	base = base ? base + 1 : path;
	if (asprintf(&s, "%.*s.%s.%s-%ld", (int)(base - path), path, base, tag, (long)getpid()) < 0)
		return NULL;
	return s;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p) < 0 ? -1 : 0;
}

static void rm_tree(const char *p)
{
	nftw(p, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether dir/metadata is a regular file a CTF export wrote (it begins "/\* CTF 1.8 *\/"). */
static int ctf_metadata(int dfd)
{
	char head[16];
	struct stat st;
	ssize_t n;
	int fd = openat(dfd, "metadata", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = fstat(fd, &st) || !S_ISREG(st.st_mode) ? -1 : read(fd, head, sizeof(head));
	close(fd);
	return n >= 13 && !memcmp(head, "/* CTF 1.8 */", 13);
}

/* --force replaces only what this command could have written: an existing directory only when the
 * format writes one and it is an earlier CTF export (metadata at its top, or in each of its
 * subdirectories N_NAME, and nothing but regular files beside: the streams); a file format never
 * replaces a directory. 1, or 0 with the reason in why. */
static int replaceable(const char *out, const struct stat *st, int dir, char *why, size_t n)
{
	DIR *d;
	struct dirent *e;
	int ok, top, subdirs = 0;

	if (!S_ISDIR(st->st_mode))
		return 1;	/* a file, a device, a pipe: as before */
	if (!dir) {
		snprintf(why, n, "a directory, and this format writes a file");
		return 0;
	}
	d = opendir(out);
	if (!d) {
		snprintf(why, n, "%s", strerror(errno));
		return 0;
	}
	top = ctf_metadata(dirfd(d));
	ok = 1;
	while (ok && (e = readdir(d))) {
		struct stat es;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &es, AT_SYMLINK_NOFOLLOW)) {
			ok = 0;
		} else if (S_ISDIR(es.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			/* a multi-trace export: N_NAME subdirectories, each a CTF trace */
			ok = !top && sub >= 0 && ctf_metadata(sub);
			subdirs++;
			if (sub >= 0)
				close(sub);
		} else if (!S_ISREG(es.st_mode)) {
			ok = 0;
		}
	}
	closedir(d);
	if (!ok || (!top && !subdirs)) {
		snprintf(why, n, "a directory that is not an earlier CTF export (no metadata of one, or "
			 "other files in it)");
		return 0;
	}
	return 1;
}

/* ---- progress ---------------------------------------------------------------------------------------- */

struct progress {
	int on;			/* stderr is a terminal */
	int shown;
	uint64_t start_ns;	/* ltt_mono_ns */
	uint64_t first_ns, last_ns;	/* ordered: progress by time */
	uint64_t total_bytes, done_bytes;	/* unordered: progress by tracefile bytes */
	const struct ltt_tracefile_info *tf;
};

static void progress_draw(struct progress *p, const struct ltt_event *ev, uint64_t n, int unordered)
{
	double frac = 0;
	int w = 30, k;

	if (!p->on || ltt_mono_ns() - p->start_ns < 1000000000u)
		return;
	if (unordered) {
		if (ev->tracefile != p->tf) {
			if (p->tf)
				p->done_bytes += p->tf->file_size;
			p->tf = ev->tracefile;
		}
		if (p->total_bytes)
			frac = (double)(p->done_bytes + ev->offset) / (double)p->total_bytes;
	} else if (p->last_ns > p->first_ns && ev->time_ns >= p->first_ns) {
		frac = (double)(ev->time_ns - p->first_ns) / (double)(p->last_ns - p->first_ns);
	}
	if (frac > 1)
		frac = 1;
	k = (int)(frac * w);
	fprintf(stderr, "\rltt export: [%.*s%*s] %3d%%  %llu events", k, "##############################",
		w - k, "", (int)(frac * 100), (unsigned long long)n);
	p->shown = 1;
}

static void progress_done(struct progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%*s\r", 72, "");
}

/* ---- per event type state ---------------------------------------------------------------------------- */

static int types_init(struct ltt_reader *r)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];
			const struct ltt_type_desc *b = ty->body;
			struct export_type *et = calloc(1, sizeof(*et));
			uint32_t off = 0;

			if (!et || asprintf((char **)&et->full, "%s.%s", ty->facility, ty->name) < 0) {
				free(et);
				return -ENOMEM;
			}
			et->tid_offset = -1;
			et->app = !ty->builtin && !strcmp(ty->facility, "app");
			et->core = !ty->builtin && !strcmp(ty->facility, "core");
			if (!ty->builtin && !strcmp(ty->facility, "func"))
				et->func = !strcmp(ty->name, "entry") ? 1 : !strcmp(ty->name, "exit") ? 2 :
					   !strcmp(ty->name, "call") ? 3 : 0;
			et->thread_name = !ty->builtin && !strcmp(ty->facility, "core") &&
					  (!strcmp(ty->name, "thread_name") || !strcmp(ty->name, "thread_start"));
			/* a "tid" uint field after fixed-size fields only */
			for (uint32_t f = 0; b && b->kind == LTT_TYPE_STRUCT && f < b->n_fields; f++) {
				const struct ltt_type_desc *ft = b->fields[f].type;

				if (!strcmp(b->fields[f].name, "tid") && ft->kind == LTT_TYPE_UINT) {
					et->tid_bytes = ltt_size_bytes(ft->size, t->arch_size);
					if (et->tid_bytes && et->tid_bytes <= 4)
						et->tid_offset = (int)off;
					break;
				}
				if (ft->variable)
					break;
				off += ft->fixed_size[t->arch_size];
			}
			*ty->user = et;
		}
	}
	return 0;
}

static void types_free(struct ltt_reader *r)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];
			struct export_type *et = *ty->user;

			if (et)
				free((char *)et->full);
			free(et);
			*ty->user = NULL;
		}
	}
}

/* ---- the export ------------------------------------------------------------------------------------- */

/* --threads: N as given; by default one per CPU online for traces of 8 MiB or more
 * (par_default_workers), but one when the 1-minute load average says every CPU is taken already
 * (at least the CPUs online + 1, this command's own share of it aside): threads without a CPU only
 * add cost (ltt export --format=ctf --threads=2 ran at 0.67x one thread at load 7 on 2 CPUs, 0.94x at
 * load 3; doc/performance.md "Export in parallel"). The output does not depend on the number. */
static unsigned default_threads(struct ltt_reader *r, unsigned threads)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = par_default_workers(r, threads);
	double load;

	if (threads || n < 2 || getloadavg(&load, 1) != 1)
		return n;
	return load >= (double)ncpu + 1 ? 1 : n;
}

static void report(const struct ltt_export_ctx *ctx, int err)
{
	if (err != EXPORT_REPORTED)
		ltt_tool_error("export", "%s: %s", ctx->out_name, strerror(-err));
}

/* Puts tmp (a directory when dir) in place of out: a rename, after moving an existing OUT aside when
 * a rename cannot replace it (a directory, or a file replaced by a directory). */
static int install(const char *tmp, const char *out, int force, int dir)
{
	struct stat st;
	char *old;
	int ret;

	if (!force || lstat(out, &st) < 0 || (!S_ISDIR(st.st_mode) && !dir))
		return rename(tmp, out) < 0 ? -errno : 0;
	old = beside(out, "old");
	if (!old)
		return -ENOMEM;
	ret = rename(out, old) < 0 ? -errno : 0;
	if (!ret && rename(tmp, out) < 0) {
		ret = -errno;
		rename(old, out);
	} else if (!ret) {
		rm_tree(old);
	}
	free(old);
	return ret;
}

static int run(int argc, char **argv)
{
	struct reader_tool tool = { .cmd = "export" };
	struct ltt_reader_options ropt = { .problem = reader_tool_problem, .problem_arg = &tool };
	struct ltt_export_ctx ctx = { .cmd = "export" };
	struct export_opts o;
	struct progress prog = { 0 };
	struct sigaction sa;
	struct ltt_reader *r;
	struct ltt_event ev;
	struct stat st;
	char *out = NULL, *tmp = NULL, why[256];
	uint64_t n = 0;
	int first, ret = 0, status = 1, begun = 0, installed = 0, direct, fd = -1, whole = 0, priv = 0;

	memset(&o, 0, sizeof(o));
	first = parse_args(argc, argv, &o);
	if (first < 0)
		return 2;
	o.filter.all = (int)o.exp->builtin;
	o.filter.lost = (int)o.exp->lost;
	if (o.exp->builtin || o.exp->lost)
		ropt.flags |= LTT_READ_BUILTIN;
	if (o.exp->unordered)
		ropt.flags |= LTT_READ_UNORDERED;
	out = o.out ? strdup(o.out) : default_out(argv[first], o.exp->suffix);
	if (!out) {
		ltt_tool_error("export", "out of memory");
		return 1;
	}
	/* Standard output ("-o -"), or with --force an existing device or pipe, is written directly. */
	direct = !strcmp(out, "-");
	if (!direct && lstat(out, &st) == 0) {
		if (!o.force) {
			ltt_tool_error("export", "%s exists (--force replaces it, or -o names another output)", out);
			free(out);
			return 1;
		}
		if (!replaceable(out, &st, (int)o.exp->dir, why, sizeof(why))) {
			ltt_tool_error("export", "%s: %s: not replaced by --force (remove it, or -o names another "
				       "output)", out, why);
			free(out);
			return 1;
		}
		direct = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode);
	}
	if (direct && o.exp->dir) {
		ltt_tool_error("export", "-o %s: --format=%s writes a directory", out, o.exp->name);
		free(out);
		return 2;
	}
	if (reader_tool_open(&tool, &r, argv + first, (unsigned)(argc - first), &ropt)) {
		free(out);
		return 1;
	}
	if (reader_filter_apply(r, &o.filter, "export", &ctx.from_ns, &ctx.to_ns)) {
		ltt_reader_close(r);
		free(out);
		return 2;
	}
	for (unsigned i = 0; o.exp->builtin && i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			if (t->event_types[k]->builtin)
				ltt_reader_hide_event_type(r, t->event_types[k], 0);
	}
	if (ltt_reader_time_bounds(r, &ctx.first_ns, &ctx.last_ns) == 0) {
		if (ctx.first_ns < ctx.from_ns)
			ctx.first_ns = ctx.from_ns;
		if (ctx.last_ns > ctx.to_ns)
			ctx.last_ns = ctx.to_ns;
		if (ctx.last_ns < ctx.first_ns)
			ctx.last_ns = ctx.first_ns;
	} else {
		ctx.first_ns = ctx.last_ns = 0;
	}
	ctx.reader = r;
	ctx.ntraces = ltt_reader_ntraces(r);
	ctx.out_name = out;
	ctx.threads = default_threads(r, o.threads);
	ctx.cpus = o.filter.cpus;
	ctx.ncpus = o.filter.ncpus;
	ctx.interrupted = &interrupted;

	/* Caught to remove what was written; a signal ignored by whoever started us (nohup, a background
	 * job's SIGINT) stays ignored. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (size_t i = 0; i < sizeof(catch_sigs) / sizeof(catch_sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(catch_sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(catch_sigs[i], &sa, NULL);
	}

	/* an export of a private trace is private (common/private.h, doc/security.md) */
	for (unsigned i = 0; i < ctx.ntraces && !priv; i++)
		priv = ltt_path_private(ltt_reader_trace(r, i)->path);
	tmp = direct ? strdup(out) : beside(out, "tmp");
	if (!tmp || types_init(r)) {
		ltt_tool_error("export", "out of memory");
		goto done;
	}
	if (o.exp->dir) {
		if (mkdir(tmp, ltt_dir_mode(priv)) < 0) {
			ltt_tool_error("export", "%s: %s", tmp, strerror(errno));
			goto done;
		}
	} else {
		if (direct)
			fd = !strcmp(out, "-") ? dup(STDOUT_FILENO) : open(out, O_WRONLY | O_CLOEXEC);
		else
			fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, ltt_file_mode(priv));
		ctx.out = fd < 0 ? NULL : malloc(sizeof(*ctx.out));
		if (!ctx.out) {
			ltt_tool_error("export", "%s: %s", tmp, strerror(fd < 0 ? errno : ENOMEM));
			goto done;
		}
		ctx.out->fd = fd;
		ctx.out->error = 0;
		ctx.out->len = 0;
	}
	ctx.path = tmp;		/* created: removed unless installed */
	installed = direct;

	prog.on = isatty(STDERR_FILENO);
	prog.start_ns = ltt_mono_ns();
	prog.first_ns = ctx.first_ns;
	prog.last_ns = ctx.last_ns;
	for (unsigned i = 0; i < ctx.ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++)
			prog.total_bytes += t->tracefiles[k]->file_size;
	}

	ret = o.exp->begin ? o.exp->begin(&ctx) : 0;
	begun = !ret;
	if (ret && !(ctx.out && ctx.out->error))
		report(&ctx, ret);
	/* the whole trace set by the format in threads (export.h); 0: it could not, the loop below */
	if (!ret && o.exp->parallel && ctx.threads >= 2 && !o.filter.from && !o.filter.to && !direct) {
		ret = o.exp->parallel(&ctx);
		whole = ret == 1;
		if (whole)
			ret = 0;
		else if (ret < 0 && !interrupted && !(ctx.out && ctx.out->error))
			report(&ctx, ret);
	}
	while (!whole && !ret && !interrupted && (ret = ltt_reader_next(r, &ev)) == 1) {
		ret = o.exp->event(&ctx, &ev);
		if (__builtin_expect(ret < 0, 0) && !(ctx.out && ctx.out->error))
			report(&ctx, ret);	/* the reader's own errors went to the problem callback */
		if (__builtin_expect(!(++n & 0xffff), 0))
			progress_draw(&prog, &ev, n, (int)o.exp->unordered);
	}
	progress_done(&prog);
	if (begun && o.exp->end) {
		int e = o.exp->end(&ctx, ret < 0 || interrupted);

		if (e && !ret) {
			report(&ctx, e);
			ret = e;
		}
	}
	if (ctx.out) {
		if (!ret && !interrupted && dump_out_flush(ctx.out) < 0)
			ret = ctx.out->error;
		else if (ctx.out->error && !ret)
			ret = ctx.out->error;
		if (ctx.out->error)
			ltt_tool_error("export", "%s: %s", out, strerror(-ctx.out->error));
	}
	if (interrupted) {
		ltt_tool_error("export", "interrupted: %s not written", out);
	} else if (ret >= 0) {
		/* the files the format made inside a private export's directory: 0600 too */
		ret = direct ? 0 : priv && o.exp->dir ? ltt_tree_private(tmp) : 0;
		if (!ret && !direct)
			ret = install(tmp, out, o.force, (int)o.exp->dir);
		if (ret)
			ltt_tool_error("export", "%s: %s", out, strerror(-ret));
		else
			installed = 1;
		if (!ret && strcmp(out, "-"))	/* what was written and where, as ltt record says it */
			fprintf(stderr, "ltt export: wrote %s%s (%s)\n", out, o.exp->dir ? "/" : "", o.exp->name);
		status = reader_tool_status(&tool, ret);
	}
done:
	if (fd >= 0)
		close(fd);
	free(ctx.out);
	if (ctx.path && !installed) {	/* nothing half-written stays */
		if (o.exp->dir)
			rm_tree(tmp);
		else
			unlink(tmp);
	}
	types_free(r);
	ltt_reader_close(r);
	free(tmp);
	free(out);
	if (interrupted)
		return 128 + interrupted;
	return status;
}

const struct ltt_cmd ltt_cmd_export = {
	.name = "export",
	.summary =
		"write traces for other viewers: an HTML timeline, Perfetto, Chrome JSON, CTF (babeltrace2), SVG, ... (doc/viewing.md)",
	.usage =
		"usage: ltt export --format=FORMAT [-o OUT] [--force] [--threads=N] [FILTERS] TRACE...\n"
		"\n"
		"Writes the events of the traces (directories, packed .tar.gz traces, or a trace set of several)\n"
		"in a format other tools read; doc/viewing.md says how to open each and what maps to what.\n"
		"OUT is written under a temporary name and renamed when complete: a failed or interrupted export\n"
		"leaves nothing. Problems in the traces are reported on stderr as 'FILE: offset N: what'; every\n"
		"good event is still exported, and the exit status is then 1.\n"
		"\n"
		"  --format=FORMAT   html: one self-contained page, an interactive timeline for any browser,\n"
		"                    offline (a double click opens it), OUT.html\n"
		"                    perfetto: Perfetto protobuf trace (ui.perfetto.dev, trace_processor), OUT.pftrace\n"
		"                    chrome-json: Chrome trace event JSON (chrome://tracing, speedscope), OUT.json\n"
		"                    ctf: CTF 1.8 trace directory (babeltrace2, Trace Compass), OUT.ctf/\n"
		"                    svg: a static timeline picture for any browser, OUT.svg\n"
		"                    speedscope: stack samples and regions per thread (speedscope), OUT.speedscope.json\n"
		"                    folded: stack samples as folded stacks (flamegraph.pl, inferno), OUT.folded\n"
		"                    lttng: the kernel events as an LTTng kernel trace (lttng-analyses, Trace\n"
		"                    Compass), OUT.lttng/\n"
		"                    rows: JSON Lines of the tables of ltt sql for ClickHouse and DuckDB (a host\n"
		"                    and a trace column on every row; doc/fleet.md), OUT.jsonl\n"
		"                    (and every format listed in doc/cli.md)\n"
		"  --table NAME      rows: events (default), any other table of ltt sql (regions, threads, ...)\n"
		"                    or a per-type table FACILITY_EVENT (ltt sql --tables TRACE lists them)\n"
		"  -o OUT, --output=OUT  where to write (default: the first trace's name with the format's suffix,\n"
		"                    in the current directory); - is standard output (file formats)\n"
		"  --force           replace OUT when it exists (refused otherwise); an existing device or pipe\n"
		"                    is written directly\n"
		"  --threads=N       ctf: encode block ranges of the tracefiles in N threads, the same bytes as\n"
		"                    one (0, the default: one per CPU online when the traces' files hold 8 MiB\n"
		"                    or more and the load average is below the CPUs + 1, else 1; --from/--to and\n"
		"                    damaged traces: one); other formats: one\n" READER_FILTER_HELP "\n"
		"Exit status: 0 written; 1 written but the traces had problems, or nothing written (an error,\n"
		"OUT exists); 2 bad options; 128+N interrupted by signal N (nothing written).\n",
	.run = run,
};
