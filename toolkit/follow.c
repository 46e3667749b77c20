/* SPDX-License-Identifier: MIT */
/* Following a trace while it is recorded (toolkit/follow.h, doc/recorder.md "Following a live
 * trace"). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/clock.h"
#include "common/parse.h"
#include "toolkit/cmd.h"
#include "toolkit/follow.h"

#define POLL_NS 100000000ull		/* how often the files are looked at when nothing is read */
#define HOLD_MARGIN_NS 250000000ull	/* beyond the flush period: the recorder's write, our look */
#define OPEN_WAIT_NS 5000000000ull	/* a trace that does not open this long after it appeared: error */

struct follow_chunk {
	uint64_t num;
	unsigned index;		/* in the reader */
	int sealed;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

int follow_interrupted(void)
{
	return interrupted;
}

static void pause_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	nanosleep(&ts, NULL);	/* a signal ends it early: follow_next looks at `interrupted` */
}

/* "PATH/chunk-0004.part" -> 4, part 1. */
static int chunk_number(const char *path, uint64_t *num, int *part)
{
	const char *b = strrchr(path, '/');
	char *end;

	b = b ? b + 1 : path;
	if (strncmp(b, "chunk-", 6))
		return -1;
	*num = strtoull(b + 6, &end, 10);
	*part = !strcmp(end, ".part");
	return *part || !*end ? 0 : -1;
}

static void changed(struct follow *f)
{
	if (f->changed)
		f->changed(f->arg, f->r);
}

static void report_removed(struct follow *f, const struct ltt_capture *c)
{
	const char *cmd = f->tool->cmd;

	if (c->nremoved > f->removed_seen) {
		uint64_t from = c->last_removed - (c->nremoved - f->removed_seen) + 1;

		if (from == c->last_removed)
			ltt_tool_error(cmd, "%s: chunk-%04llu was removed by the size bound (LTT_MAX_SIZE)%s", f->path,
				       (unsigned long long)from, f->removed_seen || !f->r ? "" : " before it could be read");
		else
			ltt_tool_error(cmd, "%s: chunk-%04llu to chunk-%04llu were removed by the size bound "
				       "(LTT_MAX_SIZE)", f->path, (unsigned long long)from,
				       (unsigned long long)c->last_removed);
		f->removed_seen = c->nremoved;
	}
	if (c->nmissing && c->first_missing + c->nmissing - 1 > f->missing_seen) {
		ltt_tool_error(cmd, "%s: chunk-%04llu%s missing (not listed in chunks-removed): its events are lost",
			       f->path, (unsigned long long)c->first_missing, c->nmissing > 1 ? " and later ones" : "");
		f->missing_seen = c->first_missing + c->nmissing - 1;
		f->tool->problems++;
	}
}

/* Adds the chunks begun since the last look, finishes those sealed (or removed) since. 1 when a chunk
 * was added, 0, or -1 on an error (reported). */
static int sync_chunks(struct follow *f)
{
	struct ltt_capture *c;
	char err[1024];
	int added = 0;

	err[0] = 0;
	if (ltt_capture_expand(f->path, LTT_CAPTURE_PARTIAL, &c, err, sizeof(err)))
		return 0;	/* between two states (the directory being renamed): the next look */
	report_removed(f, c);
	for (unsigned i = 0; i < c->ntraces; i++) {
		uint64_t num;
		int part;
		struct follow_chunk *k = NULL;

		if (chunk_number(c->traces[i], &num, &part))
			continue;
		for (unsigned j = 0; j < f->nchunks; j++)
			if (f->chunks[j].num == num)
				k = &f->chunks[j];
		if (!k && f->nchunks && num < f->chunks[f->nchunks - 1].num)
			continue;	/* older than what is read: not seen in time (listed as removed later) */
		if (!k) {
			char name[4096];
			int ret;

			if (LTT_GROW(f->chunks, f->nchunks + 1, f->capchunks)) {
				ltt_tool_error(f->tool->cmd, "out of memory");
				ltt_capture_free(c);
				return -1;
			}
			snprintf(name, sizeof(name), "%.*s", (int)(strlen(c->traces[i]) - (part ? 5 : 0)), c->traces[i]);
			err[0] = 0;
			ret = ltt_reader_add_trace(f->r, c->traces[i], name, err, sizeof(err));
			if (ret) {
				/* a chunk just published may not open yet: the next look tries again */
				if (!part || ret == -ENOMEM || ret == -EMFILE || ret == -ENFILE) {
					ltt_tool_error(f->tool->cmd, "%s", *err ? err : strerror(-ret));
					f->tool->problems++;
					f->chunks[f->nchunks++] = (struct follow_chunk){ num, UINT32_MAX, 1 };
				}
				break;
			}
			f->chunks[f->nchunks++] = (struct follow_chunk){ num, ltt_reader_ntraces(f->r) - 1, !part };
			if (!part)
				ltt_reader_finish(f->r, (int)ltt_reader_ntraces(f->r) - 1, NULL);
			added = 1;
			continue;
		}
		if (!k->sealed && !part) {
			k->sealed = 1;
			ltt_reader_finish(f->r, (int)k->index, c->traces[i]);
		}
	}
	/* a chunk is sealed before the next one is published: every chunk below the newest is complete
	 * (a chunk removed by the bound while being read is read from the files still open) */
	for (unsigned j = 0; j + 1 < f->nchunks; j++)
		if (!f->chunks[j].sealed) {
			f->chunks[j].sealed = 1;
			ltt_reader_finish(f->r, (int)f->chunks[j].index, NULL);
		}
	ltt_capture_free(c);
	return added;
}

/* Looks at the trace again; when the recording has ended, lets the reader read to the end. */
static int look(struct follow *f)
{
	int any = 0, ret;

	if (f->chunked && !f->ending && (ret = sync_chunks(f)) != 0) {
		if (ret < 0)
			return -ENOMEM;
		any = 1;
	}
	ret = ltt_reader_refresh(f->r);
	if (ret < 0)
		return ret;
	any |= ret > 0;
	if (!f->ending) {
		enum follow_state st = follow_recording_state(f);

		if (st != FOLLOW_RUNNING) {
			f->ending = 1;
			f->died = st == FOLLOW_DIED;
			if (f->chunked && sync_chunks(f) < 0)
				return -ENOMEM;
			ltt_reader_finish(f->r, -1, NULL);
			any = 1;
			if (f->died)
				ltt_tool_error(f->tool->cmd, "%s: the recording process (pid %d) ended without stopping the "
					       "recording (killed or crashed): read to the end of what it wrote", f->path,
					       (int)f->pid);
		}
	}
	if (any)
		changed(f);
	return 0;
}

/* Opens what is at path now: 0, 1 not yet (wait), -1 an error (reported). */
static int try_open(struct follow *f, int late)
{
	struct ltt_reader_options opt = { .flags = f->flags | LTT_READ_FOLLOW, .problem = reader_tool_problem,
					  .problem_arg = f->tool };
	struct ltt_capture *c = NULL;
	char err[1024];
	struct stat st;
	int ret;

	if (stat(f->path, &st) < 0) {
		if (errno == ENOENT)
			return 1;
		ltt_tool_error(f->tool->cmd, "%s: %s", f->path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		late = 1;	/* a packed trace (or not a trace): as it is */
	err[0] = 0;
	if (S_ISDIR(st.st_mode) && (ret = ltt_capture_expand(f->path, LTT_CAPTURE_PARTIAL, &c, err, sizeof(err)))) {
		if (ret == -ENOENT && !late)
			return 1;	/* being made: no system.xml, no tracefile, no chunk yet */
		ltt_tool_error(f->tool->cmd, "%s", err);
		return -1;
	}
	if (c && c->kind == LTT_CAPTURE_SNAPSHOTS) {
		ltt_tool_error(f->tool->cmd, "%s: a flight-recorder trace: its snapshots are written whole; --follow "
			       "reads a trace recorded in discard mode", f->path);
		ltt_capture_free(c);
		return -1;
	}
	f->chunked = c && c->kind == LTT_CAPTURE_CHUNKS;
	ltt_capture_free(c);
	if (!f->chunked && S_ISDIR(st.st_mode)) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/info/system.xml", f->path);
		if (access(p, R_OK) && !late)
			return 1;
	}
	err[0] = 0;
	ret = ltt_reader_open(&f->r, f->chunked ? NULL : (const char *const *)&f->path, f->chunked ? 0 : 1, &opt,
			      err, sizeof(err));
	if (!ret && f->chunked && (sync_chunks(f) < 0 || !ltt_reader_ntraces(f->r)))
		ret = -EAGAIN;
	if (ret) {
		if (f->r)
			ltt_reader_close(f->r);
		f->r = NULL;
		free(f->chunks);
		f->chunks = NULL;
		f->nchunks = f->capchunks = 0;
		if (!late && ret != -ENOMEM && ret != -EMFILE && ret != -ENFILE)
			return 1;	/* system.xml or the control files being written */
		ltt_tool_error(f->tool->cmd, "%s", *err ? err : strerror(-ret));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		ltt_reader_finish(f->r, -1, NULL);	/* a packed trace is complete */
	return 0;
}

int follow_open(struct follow *f, const char *path)
{
	struct sigaction sa;
	uint64_t t0 = ltt_mono_ns(), seen = 0;
	int said = 0, ret;
	const struct ltt_trace_info *t;
	const char *fl;
	uint64_t ms;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the pause ends at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	f->path = path;
	for (;;) {
		struct stat st;
		uint64_t now = ltt_mono_ns();

		if (interrupted)
			return 130;
		if (!seen && stat(path, &st) == 0)
			seen = now;
		ret = try_open(f, seen && now - seen > OPEN_WAIT_NS);
		if (ret < 0)
			return 1;
		if (!ret)
			break;
		if (!said && now - t0 > 1000000000u) {
			ltt_tool_error(f->tool->cmd, "%s: waiting for the trace (%s); it appears when the traced program "
				       "starts recording", path, seen ? "the directory holds no trace yet" : "not there yet");
			said = 1;
		}
		pause_ns(POLL_NS);
	}
	t = ltt_reader_trace(f->r, 0);
	follow_recording_init(f, t);
	if (!f->hold_ns) {
		fl = ltt_trace_attr(t, "ltt_flush_ms");
		f->hold_ns = fl && !ltt_parse_u64(fl, &ms) && ms && ms < 86400000u ? ms * 1000000u + HOLD_MARGIN_NS
									    : 1000000000u + HOLD_MARGIN_NS;
	}
	ltt_reader_follow_hold(f->r, f->hold_ns);
	if (said)
		ltt_tool_error(f->tool->cmd, "%s: following", path);
	f->last_look = ltt_mono_ns();
	f->next_tick = f->last_look + f->tick_ns;
	changed(f);	/* the filters for what is open now */
	/* the first look also tells a recording that ended already */
	if (look(f) < 0) {
		ltt_tool_error(f->tool->cmd, "%s: out of memory", path);
		return 1;
	}
	return 0;
}

int follow_next(struct follow *f, struct ltt_event *ev)
{
	for (;;) {
		uint64_t now, sleep, w;
		int ret;

		if (interrupted)
			return -EINTR;
		if (f->tick_ns && (now = ltt_mono_ns()) >= f->next_tick) {
			f->next_tick += f->tick_ns;
			if (f->next_tick <= now)
				f->next_tick = now + f->tick_ns;
			return FOLLOW_TICK;
		}
		ret = ltt_reader_next(f->r, ev);
		if (ret != -EAGAIN)
			return ret;
		/* nothing can be read now: pause (until the held event's time, the tick or the next
		 * look), then look at the files again */
		now = ltt_mono_ns();
		sleep = POLL_NS;
		w = ltt_reader_follow_wait(f->r);
		if (w && w < sleep)
			sleep = w;
		if (f->tick_ns && f->next_tick > now && f->next_tick - now < sleep)
			sleep = f->next_tick - now;
		if (f->idle)
			f->idle(f->arg);
		pause_ns(sleep);
		if (interrupted)
			return -EINTR;
		f->last_look = ltt_mono_ns();
		ret = look(f);
		if (ret < 0)
			return ret;
	}
}

void follow_close(struct follow *f)
{
	ltt_reader_close(f->r);
	f->r = NULL;
	free(f->chunks);
	f->chunks = NULL;
	f->nchunks = f->capchunks = 0;
}
