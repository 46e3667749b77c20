/* SPDX-License-Identifier: MIT */
/* recorder/control.c: starting and stopping a trace (from LTT_TRACE or the API), exit and fork, and
 * the out-of-line entry of the event path. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "blocking.h"
#include "clock.h"
#include "budget.h"
#include "env_parse.h"
#include "flight.h"
#include "func_internal.h"
#include "kernel.h"
#include "profile.h"
#include "recorder.h"
#include "rules.h"
#include "threads.h"

#define MAX_BLOCKS		65536u

struct ltt_runtime ltt_rt;
struct ltt_trace_state ltt_cur;
int ltt_trace_private;

static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ltt_region *spare;	/* a stopped trace's region, kept mapped (doc/recorder.md) */
static int atexit_done, atfork_done;

void ltt_warn(const char *fmt, ...)
{
	char buf[2048];	/* the kernel's missing-events line is up to 1 KiB, with its reasons */
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(stderr, "ltt: %s\n", buf);
}

unsigned ltt_cpu_id_slow(void)
{
	int e = errno, c = sched_getcpu();

	errno = e;	/* the event path never changes errno (signal handlers trace) */
	return c < 0 ? 0 : (unsigned)c;
}

int ltt_event_reserve_slow(struct ltt_slot *s, struct ltt_facility *fac, unsigned event_index,
			   size_t payload_len, unsigned event_flags)
{
	struct ltt_region *rg;
	uint16_t base;

	if (!fac)
		return 0;
	base = ltt_read(&fac->base_code);
	if (!base) {
		ltt_facility_register(fac);
		base = ltt_read(&fac->base_code);
		if (!base)
			return 0;
	}
	if (event_index >= fac->n_events)
		return 0;
	/* Acquire: pairs with the release store of ltt_start(). */
	rg = ltt_read(&ltt_rt.region);
	if (!rg)
		return 0;
	return ltt_ring_reserve_slow(s, ltt_event_ring(rg, fac, event_index, event_flags),
				     (uint16_t)(base + event_index), payload_len, 1);
}

/* ---- options -------------------------------------------------------------------------------------- */

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int check_geometry(size_t bs, unsigned blocks, char *why, size_t n)
{
	if (!pow2(bs) || bs < LTT_BLOCK_SIZE_MIN || bs > LTT_BLOCK_SIZE_MAX) {
		snprintf(why, n, "block size %zu: not a power of two in [4096, 256M]", bs);
		return -EINVAL;
	}
	if (!pow2(blocks) || blocks < 2 || blocks > MAX_BLOCKS) {
		snprintf(why, n, "blocks %u: not a power of two in [2, %u]", blocks, MAX_BLOCKS);
		return -EINVAL;
	}
	return 0;
}

/* ---- start / stop --------------------------------------------------------------------------------- */

/* Registered with on_exit(), not atexit(): in a shared library atexit() ties the handler to the
 * library, and it then runs from _dl_fini, before the handlers of the exit list registered by the
 * library's constructors (the app API's exit event among them), which would find recording stopped.
 * on_exit() handlers stay in the exit list, run last-registered first, so handlers registered after
 * this one (the app API's) record before the flush. libltt.so is linked -z nodelete, so the handler
 * stays mapped even if a program dlclose()s a library that pulled libltt in. */
static void exit_stop(int status, void *arg)
{
	(void)status;
	(void)arg;
	ltt_stop();
}

static void fork_prepare(void)
{
	pthread_mutex_lock(&ctl_lock);
	ltt_registry_lock();
}

static void fork_parent(void)
{
	ltt_registry_unlock();
	pthread_mutex_unlock(&ctl_lock);
}

/* The child records nothing: its copy of the rings is never written or read again. It may call
 * ltt_start() for a trace of its own (the consumer thread does not exist in it). */
static void fork_child(void)
{
	ltt_set(&ltt_rt.recording, 0);
	ltt_set(&ltt_rt.region, NULL);
	ltt_cur.rg = NULL;
	spare = NULL;
	ltt_profile_fork_child();
	ltt_kernel_fork_child();	/* the parent's perf descriptors and rings: not the child's */
	for (struct ltt_facility *f = ltt_registry_first(); f; f = f->next)
		ltt_events_refresh_locked(f);	/* every flag off (the registry lock is held) */
	ltt_registry_unlock();
	pthread_mutex_unlock(&ctl_lock);
}

/* `ltt record` learns where traces went from the file LTT_RECORD_REPORT names: one line each (and
 * "lost PATH: ..." lines, recorder/loss_report.c). */
int ltt_record_report(const char *line)
{
	const char *rep = secure_getenv("LTT_RECORD_REPORT");
	size_t n = strlen(line);
	int fd, ok;

	if (!rep || !*rep)
		return 0;
	fd = open(rep, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = write(fd, line, n) == (ssize_t)n;	/* else ltt record finds no trace: nothing else to do */
	close(fd);
	return ok;
}

static void report_path(const char *path)
{
	char line[PATH_MAX + 1];
	int n = snprintf(line, sizeof(line), "%s\n", path);

	if (n > 0 && (size_t)n < sizeof(line))
		ltt_record_report(line);
}

static int start_locked(const struct ltt_options *opt, int from_env, char *why, size_t whylen)
{
	struct ltt_region_geom g;
	struct ltt_region *rg = NULL;
	struct ltt_kernel_req kreq;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t bs;
	unsigned blocks;
	int rc, shm_fd, created = 0, mapped_file, rotating;
	char abs_path[PATH_MAX], taken[PATH_MAX], cwhy[PATH_MAX + 256];
	const char *verbose = secure_getenv("LTT_VERBOSE");

	if (ltt_cur.rg)
		return -EBUSY;
	if (ncpu < 1)
		ncpu = 1;
	/* the CPU rings share one budget (doc/recorder.md "Memory"), unless LTT_BLOCKS says otherwise */
	ltt_ring_budget((unsigned)ncpu, opt->buffer_size, opt->block_size, opt->blocks, &bs, &blocks);
	rc = check_geometry(bs, blocks, why, whylen);
	if (!rc)
		rc = ltt_profile_check(opt, why, whylen);
	if (rc)
		return rc;
	if (opt->mode != LTT_MODE_DISCARD && opt->mode != LTT_MODE_FLIGHT) {
		snprintf(why, whylen, "mode %d: unknown", (int)opt->mode);
		return -EINVAL;
	}
	rotating = opt->rotate_size || opt->rotate_seconds;
	if (rotating && opt->mode == LTT_MODE_FLIGHT) {
		snprintf(why, whylen, "rotation (LTT_ROTATE_SIZE, LTT_ROTATE_SECONDS) is for discard mode; "
			 "flight mode bounds its memory by LTT_BLOCKS");
		return -EINVAL;
	}
	if (opt->max_size && !rotating) {
		snprintf(why, whylen, "LTT_MAX_SIZE needs LTT_ROTATE_SIZE or LTT_ROTATE_SECONDS (the bound "
			 "removes whole chunks)");
		return -EINVAL;
	}
	rc = ltt_kernel_parse(opt, &kreq, why, whylen);
	if (!rc)
		rc = ltt_blocking_start(opt, why, whylen);
	if (rc)
		return rc;
	/* a trace of kernel events other users may not read is theirs to not read either (recorder.h) */
	ltt_trace_private = kreq.groups && (kreq.system || ltt_kernel_privileged());
	rc = ltt_events_start(opt->events, opt->mode == LTT_MODE_FLIGHT, why, whylen);
	if (rc)
		return rc;
	if (ncpu < 1)
		ncpu = 1;
	g.ncpu = (uint32_t)ncpu;
	g.block_size = (uint32_t)bs;
	g.blocks = blocks;
	g.flags = opt->mode == LTT_MODE_FLIGHT ? LTT_REGION_OVERWRITE : 0;
	if (kreq.groups)
		g.flags |= LTT_REGION_KERNEL;	/* kernel/N rings (recorder/kernel.c) */
	/* Every setting is checked before anything is created (flight mode: LTT_SNAPSHOT_SIGNAL,
	 * LTT_SNAPSHOT_AT_EXIT, and the rings' file under LTT_SHM_DIR, recorder/flight_control.c);
	 * whatever a failed start created is removed (`fail`). */
	shm_fd = opt->mode == LTT_MODE_FLIGHT ? ltt_flight_prepare(opt, &g, why, whylen) : -1;
	if (shm_fd < -1)
		return shm_fd;
	mapped_file = shm_fd >= 0;
	why[0] = 0;
	rc = ltt_tracedir_make(opt->path, ltt_cur.path, sizeof(ltt_cur.path),
			       opt->mode == LTT_MODE_FLIGHT ? LTT_DIR_FLIGHT
							    : rotating ? LTT_DIR_CHUNKS : LTT_DIR_TRACE, &created,
			       taken, sizeof(taken), why, whylen);
	if (rc) {
		if (!why[0])
			snprintf(why, whylen, "%s: %s", opt->path ? opt->path : "(null)", strerror(-rc));
		goto fail;
	}
	/* Absolute, so that a program that changes directory still writes its trace there. */
	if (realpath(ltt_cur.path, abs_path))
		snprintf(ltt_cur.path, sizeof(ltt_cur.path), "%s", abs_path);
	snprintf(ltt_cur.dir, sizeof(ltt_cur.dir), "%s", ltt_cur.path);
	ltt_cur.rotate_size = opt->rotate_size;
	ltt_cur.rotate_seconds = opt->rotate_seconds;
	ltt_cur.max_size = opt->max_size;
	ltt_cur.chunk = 0;
	ltt_cur.block_size = g.block_size;
	if (rotating) {
		/* the trace is TRACE/chunk-NNNN/ directories, written as .part (recorder/rotate.c) */
		ltt_cur.chunk = 1;
		rc = ltt_chunk_make(&ltt_cur, 1, ltt_cur.dir, sizeof(ltt_cur.dir));
		if (rc) {
			snprintf(why, whylen, "%s/chunk-0001.part: %s", ltt_cur.path, strerror(-rc));
			snprintf(ltt_cur.dir, sizeof(ltt_cur.dir), "%s", ltt_cur.path);
			goto fail;
		}
	}
	if (shm_fd < 0 && spare && spare->ncpu == g.ncpu && spare->block_size == g.block_size &&
	    spare->blocks == g.blocks && (spare->flags & LTT_REGION_KERNEL) == (g.flags & LTT_REGION_KERNEL)) {
		rg = spare;
		spare = NULL;
		ltt_region_reset(rg, g.flags);
	} else {
		rc = ltt_region_create(&rg, &g, shm_fd);
		if (rc) {
			snprintf(why, whylen, "ring buffers of %zu bytes: %s", ltt_region_size(&g), strerror(-rc));
			goto fail;
		}
	}
	ltt_cur.mode = opt->mode;
	ltt_cur.pid = getpid();
	ltt_cur.rg = rg;
	ltt_cur.block_size = g.block_size;
	ltt_cur.blocks = g.blocks;
	ltt_cur.ncpu = g.ncpu;
	ltt_cur.flush_ms = opt->flush_ms;
	/* kernel events: the clock perf can stamp in (recorder/kernel_clock.c) */
	ltt_kernel_prepare(&kreq);
	if (kreq.groups)
		ltt_kernel_clock_prepare();
	else
		ltt_clock_kernel_monotonic(0);
	ltt_clock_start();
	/* flight mode: what it records goes in system.xml, which ltt_flight_start() keeps; discard
	 * mode: after the consumer starts (its thread must not inherit the events), system.xml again */
	if (opt->mode == LTT_MODE_FLIGHT)
		ltt_kernel_open(rg);
	rg->clock_kind = ltt_rt.clock_kind;
	rg->cycles_per_second = ltt_timemap.cycles_per_second;
	rg->start_cycles = ltt_timemap.start_cycles;
	rg->start_time_ns = ltt_timemap.start_ns;
	rc = ltt_tracedir_system_xml(&ltt_cur);
	/* Flight mode does no I/O while recording (snapshots write the rings, control rings
	 * included: they never wrap, see recorder/snapshot.c); discard mode runs the consumer. */
	if (!rc && opt->mode == LTT_MODE_FLIGHT) {
		rc = ltt_flight_start(&ltt_cur, shm_fd);
		shm_fd = -1;	/* the file is ltt_flight_start()'s now: it removed it if it failed */
	} else if (!rc) {
		cwhy[0] = 0;
		rc = ltt_consumer_start(&ltt_cur, cwhy, sizeof(cwhy));
		if (!rc && kreq.groups) {
			ltt_kernel_open(rg);
			if (ltt_tracedir_system_xml(&ltt_cur))
				ltt_warn("%s/info/system.xml: cannot say what kernel events are recorded",
					 ltt_cur.path);
		}
	}
	if (rc) {
		if (cwhy[0])
			snprintf(why, whylen, "%s", cwhy);
		else
			snprintf(why, whylen, "%s: %s", ltt_cur.path, strerror(-rc));
		ltt_kernel_stop();
		ltt_cur.rg = NULL;
		/* a region mapped from the rings' file is not reused (it goes with the file); it was
		 * never published, so nobody holds a pointer to it */
		if (mapped_file)
			munmap(rg, rg->size);
		else
			spare = rg;
		goto fail;
	}
	/* Release: the region and clock are initialised before writers can see them; pairs with the
	 * acquire loads in ltt_event_reserve() (and ltt_is_recording()). */
	ltt_rt.rseq = rg->rings[0].cpu_owned;	/* the same for every region of this process */
	ltt_smp_wmb();	/* B8: initialisation before publication; pairs with the writers' acquire load */
	ltt_set(&ltt_rt.region, rg);
	ltt_set(&ltt_rt.recording, 1);
	ltt_facilities_emit_all();
	ltt_core_emit_processes();
	ltt_core_emit_interrupts();
	ltt_events_started(!from_env);	/* the flags of generated code, core.event_rules */
	/* discard mode: the control tracefiles reach the disk now, not at stop (a trace cut short by
	 * SIGKILL or a crash still decodes; doc/recorder.md "Control tracefiles") */
	ltt_control_seal(LTT_RING_FACILITIES);
	ltt_control_seal(LTT_RING_PROCESSES);
	ltt_control_seal(LTT_RING_INTERRUPTS);
	ltt_profile_start(opt);	/* CPU usage and stack sampling, pause (recorder/profile.h) */
	ltt_func_start(opt->stack_sample_hz != 0);	/* function tracing (recorder/func_internal.h) */
	ltt_kernel_begin();	/* kernel events on (recorder/kernel.c) */
	report_path(ltt_cur.path);
	if (taken[0])
		ltt_warn("%s is a trace already (never overwritten); this trace is %s", taken, ltt_cur.path);
	if (verbose && !strcmp(verbose, "1"))
		ltt_warn("recording pid %d to %s (%s mode)", (int)getpid(), ltt_cur.path,
			 opt->mode == LTT_MODE_FLIGHT ? "flight" : "discard");
	if (!atexit_done++)
		on_exit(exit_stop, NULL);
	if (!atfork_done++)
		pthread_atfork(fork_prepare, fork_parent, fork_child);
	return 0;
fail:
	ltt_flight_unprepare(shm_fd);
	if (ltt_cur.chunk && strcmp(ltt_cur.dir, ltt_cur.path))
		ltt_tracedir_remove(ltt_cur.dir);
	if (created)
		ltt_tracedir_remove(ltt_cur.path);
	ltt_cur.path[0] = 0;
	ltt_cur.dir[0] = 0;
	ltt_cur.chunk = 0;
	return rc;
}

int ltt_control_trylock(void)
{
	return pthread_mutex_trylock(&ctl_lock);
}

void ltt_control_unlock(void)
{
	pthread_mutex_unlock(&ctl_lock);
}

int ltt_start(const struct ltt_options *opt)
{
	char why[PATH_MAX + 128] = "";
	int rc;

	if (!opt)
		return -EINVAL;
	pthread_mutex_lock(&ctl_lock);
	rc = start_locked(opt, 0, why, sizeof(why));
	pthread_mutex_unlock(&ctl_lock);
	return rc;
}

static int stop_verbose(void)
{
	const char *v = secure_getenv("LTT_VERBOSE");

	return v && !strcmp(v, "1");
}

static int stopping;	/* a thread is in ltt_stop() (recorder/exit.c waits for it) */

void ltt_stop_wait(void)
{
	/* Relaxed: a hint; the control lock, held for the whole stop, is the wait itself. */
	if (!__atomic_load_n(&stopping, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&ctl_lock);
	pthread_mutex_unlock(&ctl_lock);
}

/* Rotation by size (doc/recorder.md "Rotation"): before the rings close, the consumer writes, chunk by
 * chunk, every block the CPU and kernel rings hold now; otherwise the last chunk would take all of it
 * (up to the rings' memory, many times LTT_ROTATE_SIZE when the disk was behind) and the size bound
 * would keep fewer chunks. Waits without the control lock (the consumer's rotations take it), while
 * the consumer moves (at most 2 s without progress) and the trace is the one it began with. */
static void stop_catch_up(void)
{
	struct ltt_region *rg;
	uint64_t *target, last = 0, idle_since = 0;
	unsigned n;

	pthread_mutex_lock(&ctl_lock);
	rg = ltt_cur.rg;
	if (!rg || ltt_cur.mode != LTT_MODE_DISCARD || !ltt_cur.chunk || !ltt_cur.rotate_size ||
	    !(target = calloc(rg->nrings, sizeof(*target)))) {
		pthread_mutex_unlock(&ctl_lock);
		return;
	}
	n = rg->nrings;
	for (unsigned i = 0; i < n; i++)
		if (i < rg->ncpu || i >= ltt_region_kbase(rg))
			target[i] = ltt_ring_head_seq(&rg->rings[i]);
	pthread_mutex_unlock(&ctl_lock);
	while (ltt_read(&ltt_rt.region) == rg) {
		uint64_t sum = 0, now;
		int behind = 0;

		for (unsigned i = 0; i < n; i++) {
			uint64_t c = ltt_read(&rg->rings[i].consumed);

			sum += c;
			behind |= c < target[i];
		}
		if (!behind)
			break;
		now = ltt_mono_ns();
		if (sum != last || !idle_since) {
			last = sum;
			idle_since = now;
		} else if (now - idle_since > 2000000000ull) {
			break;	/* the consumer does not move: stop writes what is left in the last chunk */
		}
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	free(target);
}

int ltt_stop(void)
{
	struct ltt_region *rg;

	stop_catch_up();
	pthread_mutex_lock(&ctl_lock);
	rg = ltt_cur.rg;
	if (!rg) {
		pthread_mutex_unlock(&ctl_lock);
		return 0;
	}
	__atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
	ltt_func_stop();	/* the hooks off */
	ltt_profile_stop();	/* the last CPU sample, while events still record */
	ltt_kernel_stop();	/* the last kernel records drained, while the rings are open */
	/* B7: no new event starts after this; those that loaded the region find its rings closed. */
	ltt_set(&ltt_rt.recording, 0);
	ltt_set(&ltt_rt.region, NULL);
	ltt_events_stopped();	/* the flags of generated code off */
	for (unsigned i = 0; i < rg->nrings; i++)
		ltt_ring_flush(&rg->rings[i], 1);
	ltt_consumer_stop();
	if (!(rg->flags & LTT_REGION_OVERWRITE))
		ltt_loss_report(ltt_cur.path, rg);	/* what was lost, once, said (issue 34) */
	else
		ltt_loss_report_kept(ltt_cur.path, rg); /* flight mode: what the kept history lost */
	ltt_blocking_stop(stop_verbose());
	if (rg->flags & LTT_REGION_OVERWRITE) {
		ltt_flight_stop();	/* the snapshot at exit (recorder/flight_control.c) */
	}
	ltt_region_release_data(rg);
	ltt_cur.rg = NULL;
	spare = rg;
	__atomic_store_n(&stopping, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&ctl_lock);
	return 0;
}

int ltt_recording(void)
{
	return ltt_is_recording();
}

const char *ltt_trace_path(void)
{
	return ltt_cur.rg ? ltt_cur.path : NULL;
}

/* ---- LTT_TRACE ------------------------------------------------------------------------------------ */

/* LTT_FLUSH_MS, LTT_ROTATE_SIZE, LTT_ROTATE_SECONDS, LTT_MAX_SIZE (doc/recorder.md). */
static int env_io_options(struct ltt_options *o, char *why, size_t n)
{
	uint64_t v;
	int rc;

	if ((rc = ltt_env_get(LTT_ENV_FLUSH_MS_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->flush_ms = v ? (int)v : -1;
	if ((rc = ltt_env_get(LTT_ENV_ROTATE_SIZE_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->rotate_size = v;
	if ((rc = ltt_env_get(LTT_ENV_ROTATE_SECONDS_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->rotate_seconds = (unsigned)v;
	if ((rc = ltt_env_get(LTT_ENV_MAX_SIZE_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->max_size = v;
	return 0;
}

static int env_options(struct ltt_options *o, char *why, size_t n)
{
	const char *mode = secure_getenv("LTT_MODE"), *io = secure_getenv("LTT_IO");
	uint64_t v;
	int rc;

	memset(o, 0, sizeof(*o));
	o->path = secure_getenv("LTT_TRACE");
	o->shm_dir = secure_getenv("LTT_SHM_DIR");
	o->events = secure_getenv("LTT_EVENTS");
	if (mode && *mode) {
		if ((rc = ltt_env_word(&ltt_env_words[LTT_ENV_MODE_ID], mode, why, n)) < 0)
			return rc;
		o->mode = rc == 1 ? LTT_MODE_FLIGHT : LTT_MODE_DISCARD;
	}
	/* LTT_IO is read by the consumer (recorder/consumer.c), LTT_RSEQ by recorder/rseq.c, LTT_WAITS
	 * and LTT_WAITS_THRESHOLD_US by recorder/waits.c (before this, which leaves waits off on a bad
	 * value): checked here so that a misspelt value is refused like any other, never taken as the
	 * default, and stops the trace */
	if (io && *io && (rc = ltt_env_word(&ltt_env_words[LTT_ENV_IO_ID], io, why, n)) < 0)
		return rc;
	/* every numeric and boolean setting of the table, whatever the mode reads (LTT_SNAPSHOT_* outside
	 * flight mode, LTT_WAITS_THRESHOLD_US without LTT_WAITS): one rule, a bad value stops the trace */
	for (unsigned i = 0; i < LTT_ENV_NVARS; i++)
		if ((rc = ltt_env_get((enum ltt_env_id)i, &v, why, n)) < 0)
			return rc;
	if ((rc = ltt_env_get(LTT_ENV_BLOCK_SIZE_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->block_size = (size_t)v;
	if ((rc = ltt_env_get(LTT_ENV_BLOCKS_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->blocks = (unsigned)v;
	if ((rc = ltt_env_get(LTT_ENV_BUFFER_SIZE_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->buffer_size = v;
	rc = env_io_options(o, why, n);
	if (!rc)
		rc = ltt_blocking_env(o, why, n);
	if (!rc)
		rc = ltt_func_env(why, n);
	if (!rc)
		rc = ltt_kernel_env(o, why, n);
	return rc ? rc : ltt_profile_env(o, why, n);
}

static int env_start_now(void)
{
	char why[PATH_MAX + 128] = "";
	struct ltt_options o;
	int rc;

	rc = env_options(&o, why, sizeof(why));
	if (!rc) {
		pthread_mutex_lock(&ctl_lock);
		rc = start_locked(&o, 1, why, sizeof(why));
		pthread_mutex_unlock(&ctl_lock);
	}
	if (rc)
		ltt_warn("%s; not tracing", why[0] ? why : strerror(-rc));
	return rc;
}

int ltt_env_restart(void)
{
	const char *path = secure_getenv("LTT_TRACE");

	return path && *path ? env_start_now() : -ENOENT;
}

__attribute__((constructor(102))) static void env_start(void)
{
	const char *path = secure_getenv("LTT_TRACE");

	ltt_secure_env_note(); /* setuid programs: the LTT_* variables ignored, said once */
	if (!path || !*path || ltt_exec_redundant())
		return;
	ltt_exec_adopt_begin(); /* the trace of this process before its exec (recorder/exec.c) */
	env_start_now();
	ltt_exec_adopt_end();
}
