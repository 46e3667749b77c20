/* SPDX-License-Identifier: MIT */
/* libltt: the ltt trace recorder, linked into traced programs.
 *
 * A program calls the generated trace_<facility>_<event>() functions (`ltt gen`); while a trace is
 * recording, each call packs one event into the per-CPU ring buffer of the CPU it runs on. Nothing
 * records unless enabled: by LTT_TRACE=<path> in the environment (read when the program starts), or by
 * ltt_start(). Functions return 0 or a negative errno value; none of them aborts the program.
 *
 * Environment (read once, by a constructor; doc/recorder.md has the full list): LTT_TRACE=PATH (PATH/
 * or an existing directory: a new trace directory PROGRAM-PID-TIME beneath it; PATH missing: PATH
 * itself; an existing trace: PATH.1, PATH.2, ..., said on stderr; doc/recorder.md "Where the trace
 * goes"), LTT_VERBOSE=1 (print the trace's directory at start), LTT_MODE=discard|flight,
 * LTT_BLOCK_SIZE=N (power of two, 4096 .. 256M, k/M suffixes), LTT_BLOCKS=N (power of two, 2 ..
 * 65536), LTT_FLUSH_MS=N (ms; 0 = never; default 1000), LTT_ROTATE_SIZE=N, LTT_ROTATE_SECONDS=N,
 * LTT_MAX_SIZE=N (sizes with k/M/G suffixes; doc/recorder.md "Rotation"), LTT_CPU_SAMPLE_MS=N,
 * LTT_STACK_SAMPLE_HZ=N, LTT_STACK_SIGNAL=SIG, LTT_PAUSE_SIGNAL=SIG (doc/recorder.md "Profiling"),
 * LTT_EVENTS=RULES (which events record, see ltt_events_set()). A bad value prints one line on stderr and the program runs untraced.
 * Recording stops and everything is written at exit() / return from main, or ltt_stop().
 * fork(): the child does not record (it may ltt_start() a trace of its own); the parent records
 * core.process_fork. Threads need no registration (libltt wraps pthread_create). doc/recorder.md.
 */
#ifndef LTT_LTT_H
#define LTT_LTT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported from libltt.so (the libraries build with -fvisibility=hidden). */
#pragma GCC visibility push(default)

/* ---- control (recorder) ---------------------------------------------------------------------- */

enum ltt_mode {
	LTT_MODE_DISCARD = 0,	/* a consumer thread writes full blocks; events are dropped (counted) when full */
	LTT_MODE_FLIGHT = 1,	/* rings overwrite their oldest blocks; snapshots write them out */
};

struct ltt_options {
	const char *path;	/* where the trace goes, by the rule of LTT_TRACE (above) */
	enum ltt_mode mode;
	size_t block_size;	/* bytes, a power of two in [4096, 256 MiB]; 0 = default (1 MiB) */
	unsigned blocks;	/* blocks per CPU ring, >= 2; 0 = default */
	const char *shm_dir;	/* flight mode: keep the rings in files under this directory (NULL: memory) */
	int flush_ms;		/* discard: seal a partly filled block of a ring that completed none for this
				 * many ms, so a quiet program's events reach the disk; 0 = default (1000),
				 * negative = never */
	uint64_t rotate_size;	/* discard: start a new chunk TRACE/chunk-NNNN/ after this many bytes; 0 = no */
	unsigned rotate_seconds;/* discard: ... or after this many seconds; 0 = no */
	uint64_t max_size;	/* with rotation: remove the oldest chunks while the total passes this; 0 = no */
	/* Profiling (doc/recorder.md "Profiling"), off when 0: */
	unsigned cpu_sample_ms;	/* CPU usage of the process and of each thread every N ms (core.process_cpu,
				 * core.thread_cpu), by libltt's own sampler thread */
	unsigned stack_sample_hz; /* stack samples of each thread N times per second of its CPU time
				 * (core.stack_sample), on a per-thread timer signal */
	int stack_signal;	/* that signal; 0: SIGRTMIN + 4 (LTT_STACK_SIGNAL) */
	const char *events;	/* event rules (ltt_events_set()); NULL: the rules set last (initially all) */
	/* Kernel events (doc/recorder.md "Kernel events"; the kernel facility, doc/format.md s. 13): */
	const char *kernel;	/* comma list of sched, syscalls, irq, faults; NULL or "": none */
	int kernel_system;	/* 1: every CPU and process (root or CAP_PERFMON) with a state dump at
				 * start; 0: the traced process's own threads */
	size_t kernel_buffer;	/* perf's data ring per CPU, bytes (a power of two >= 8192); 0: 4 MiB,
				 * halved until the kernel's locked-memory limit takes it */
	uint64_t buffer_size;	/* bytes of all the CPU rings together (LTT_BUFFER_SIZE); 0 = default (32 MiB):
				 * each CPU's ring is buffer_size / CPUs (doc/recorder.md "Memory"); ignored
				 * when blocks is set */
	int blocking;		/* discard: a writer that finds its ring full waits for the consumer, at most
				 * this many ms, then drops (counted), instead of dropping at once (LTT_BLOCKING,
				 * doc/recorder.md "Blocking"); 0 = default (function tracing: 1000 ms, else
				 * never), negative = never. Flight mode never blocks. */
};

/* Starts recording (one trace per process at a time): -EBUSY if already recording, -EINVAL for a bad
 * option, or the errno of what failed (creating the directory, mapping the rings). */
int ltt_start(const struct ltt_options *opt);
/* Stops recording, closes partly filled blocks, writes everything out (waiting up to 2 s for
 * events other threads are still writing). 0 if not recording. Not from a signal handler. */
int ltt_stop(void);
/* Nonzero while recording. */
int ltt_recording(void);
/* The trace directory being written (NULL when not recording); valid until ltt_stop(). With rotation,
 * the directory that holds its chunk-NNNN/ directories. */
const char *ltt_trace_path(void);
/* Pauses recording: until ltt_resume(), events are not recorded (the test they take is the one of "not
 * recording"); CPU usage goes on being counted and is reported at resume. The trace records core.pause
 * and core.resume with their times. Async-signal-safe; nested calls do not count (one resume ends any
 * number of pauses). Also toggled by the signal LTT_PAUSE_SIGNAL names (off by default). 0, or -ENODEV
 * when not recording. */
int ltt_pause(void);
int ltt_resume(void);
/* Nonzero while paused. */
int ltt_paused(void);

/* Event rules: which events record (doc/recorder.md "Choosing events"). A comma-separated list of
 * globs on FACILITY.EVENT, `-` before one excludes: "jobs.*,-jobs.submit,app.region_*". The last rule
 * matching an event decides; an event no rule matches records only when the first rule excludes;
 * NULL or "" records everything. The core facility (the recorder's own state) always records.
 * Takes effect at once in every thread (thread-safe; not from a signal handler), also for the next
 * ltt_start(); while recording, the trace records the change with its time (core.event_rules). A
 * rule matching no event of the registered facilities is one warning line on stderr.
 * Returns 0, or -EINVAL for a bad list (nothing changed). */
int ltt_events_set(const char *rules);

/* ---- facilities (filled in by generated headers) --------------------------------------------- */

#define LTT_EVENT_PERSISTENT 1u	/* event_flags: write to a control tracefile (doc/format.md s. 8) */

struct ltt_facility {
	const char *name;
	const char *xml;		/* the <facility> element, as text: written to eventdefs/ */
	uint32_t checksum;
	uint16_t n_events;
	uint16_t base_code;		/* set by ltt_facility_register(); 0 until then (or if refused) */
	struct ltt_facility *next;	/* libltt's list of registered facilities */
	const char *const *event_names;	/* n_events names, by index (NULL: rules do not apply) */
	uint8_t *enabled;		/* n_events LTT_EVENT_ON|LTT_EVENT_TRIGGER flags, written by libltt
					 * (ltt_event_enabled()); initially LTT_EVENT_ON: the first event of
					 * a facility not yet registered registers it (NULL: always on) */
};

/* Registers a facility (idempotent, thread-safe): assigns its base code and, while recording, writes
 * its facility_load and XML into the trace. Generated code calls it from a constructor and on first
 * use. Facilities with the same name and checksum share one base code. */
int ltt_facility_register(struct ltt_facility *fac);

/* ---- the event path (used by generated code) ------------------------------------------------- */

/* The fast path lives in ltt/static/event.h, included here; generated code uses:
 *
 *   unsigned on = ltt_event_enabled(fac.enabled, EVENT_INDEX);
 *   if (ltt_unlikely(on & LTT_EVENT_ON)) {  // one predictable branch: not recording, not selected
 *           struct ltt_slot s;
 *           if (ltt_event_reserve(&s, &fac, EVENT_INDEX, PAYLOAD_BYTES, EVENT_FLAGS)) {
 *                   ... encode the payload at s.payload, native byte order, packed ...
 *                   ltt_event_commit(&s);
 *                   if (ltt_unlikely(on & LTT_EVENT_TRIGGER))
 *                           ltt_snapshot_trigger(&fac, EVENT_INDEX);
 *           }
 *   }
 *
 * ltt_event_reserve() writes the event header (id, time) itself and returns 1 with s.payload pointing
 * at PAYLOAD_BYTES writable bytes, or 0 when the event is not recorded (not recording, or dropped and
 * counted). Between reserve and commit the caller may not block; signal handlers may trace.
 * payload_len must not exceed the block size minus 134 bytes: larger events are counted lost (too_big).
 * Events with LTT_EVENT_PERSISTENT go to a control tracefile: the core facility's `interrupt` to
 * control/interrupts, its other events to control/processes, other facilities' to control/persistent. */

/* ---- flight recorder (LTT_MODE=flight; doc/flight-recorder.md) -------------------------------- */

/* Writes the history the rings hold now as a complete trace directory TRACE/snapshot-NNNN (numbered
 * from 0001) while recording goes on, and puts its path in path[len] (path may be NULL). Returns 0,
 * -ENODEV when no flight-mode trace is recording, -EBUSY when another snapshot did not end within 5 s,
 * or a negative errno from the file system. Also taken on LTT_SNAPSHOT_SIGNAL (SIGUSR2 by default), at
 * ltt_stop() and exit (LTT_SNAPSHOT_AT_EXIT=1, the default), and on SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT before the signal's default action, and by `ltt snapshot PID|TRACE` (libltt lists a flight
 * trace in /tmp/ltt-UID/flight-PID while it records). Triggers: LTT_SNAPSHOT_ON=RULES (the syntax of
 * ltt_events_set()) takes one soon after a matching event is recorded, by libltt's own thread, at most
 * one per LTT_SNAPSHOT_MIN_INTERVAL_MS (default 1000); LTT_SNAPSHOT_KEEP=N keeps the newest N
 * snapshot directories (default all). Async-signal-safe: a program may call it from its own
 * signal handlers (-EDEADLK if that handler interrupted a snapshot on the same thread). */
int ltt_snapshot(char *path, size_t len);
/* Whether ltt_stop() (and so exit) takes a snapshot; overrides LTT_SNAPSHOT_AT_EXIT. */
void ltt_snapshot_at_exit(int on);
/* Generated code, after recording an event whose flag has LTT_EVENT_TRIGGER (it matches
 * LTT_SNAPSHOT_ON): raises the snapshot request that the recorder's own thread serves, and holds the
 * CPU rings' blocks from the trigger event's on until that snapshot is written (writers drop instead,
 * counted). No system call, no lock; a request already raised costs one load. */
void ltt_snapshot_trigger(const struct ltt_facility *fac, unsigned event_index);
#pragma GCC visibility pop

#include <ltt/static/event.h>

#ifdef __cplusplus
}
#endif
#endif
