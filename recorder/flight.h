/* SPDX-License-Identifier: MIT */
/* recorder/flight.h: flight-recorder mode (doc/flight-recorder.md): snapshots of the rings into numbered
 * trace directories (from code, a signal, exit, a fatal signal), and rings kept in a file under
 * LTT_SHM_DIR for `ltt recover`. Private to libltt; called from control.c and facility.c by one-line
 * hooks. */
#ifndef LTT_RECORDER_FLIGHT_H
#define LTT_RECORDER_FLIGHT_H

#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "recorder.h"

/* What snapshots need, prepared at start so that a signal handler only reads it. */
struct ltt_flight {
	int active;			/* a flight trace is recording (or stopping) */
	int pid;			/* the process that started it (a forked child takes no snapshot) */
	struct ltt_region *rg;
	uint32_t ncpu, block_size, blocks;
	char path[PATH_MAX];		/* the trace directory */
	char *sys_head, *sys_tail;	/* info/system.xml cut where ltt_snapshot="N" goes */
	size_t sys_head_len, sys_tail_len;
	char *scratch[2];		/* one block each: [0] snapshots, [1] the fatal-signal snapshot */
	unsigned snap_no;		/* snapshots numbered so far (atomic) */
	int owner;			/* tid of the thread taking a snapshot, 0 when none (atomic) */
	int thread_tid;			/* libltt's flight thread, 0 when it does not run (atomic) */
	int at_exit;			/* LTT_SNAPSHOT_AT_EXIT */
	int snap_signal;		/* LTT_SNAPSHOT_SIGNAL, 0 for none */
	char registry[PATH_MAX + 32];	/* DIR/flight-PID (`ltt snapshot`), "" when not written */
	int shm_fd;			/* the rings' file, -1 when in memory */
	char shm_path[PATH_MAX];
	/* Snapshot triggers (LTT_SNAPSHOT_ON, recorder/flight_trigger.c) */
	uint64_t min_interval_ns;	/* LTT_SNAPSHOT_MIN_INTERVAL_MS */
	unsigned keep;			/* LTT_SNAPSHOT_KEEP; 0: all */
	char trigger[384];		/* attributes of the snapshot being taken for a trigger, or "" */
};
extern struct ltt_flight ltt_fl;

/* ---- hooks (control.c, facility.c) ---- */

/* Flight mode, before the region is created: reads LTT_SNAPSHOT_SIGNAL and LTT_SNAPSHOT_AT_EXIT and,
 * with opt->shm_dir, creates the file the region is mapped from. Returns its descriptor, -1 when the
 * rings live in memory, or a negative errno below -1 (why filled in) for a bad setting or a file
 * that cannot be made. */
int ltt_flight_prepare(const struct ltt_options *opt, const struct ltt_region_geom *g, char *why,
		       size_t whylen);
/* Undoes ltt_flight_prepare() for a start that failed before ltt_flight_start(): closes and removes
 * the rings' file (shm_fd < 0: nothing). */
void ltt_flight_unprepare(int shm_fd);
/* After info/system.xml is written: prepares snapshots, installs the signal handlers, writes the
 * recovery metadata into the file. shm_fd is what ltt_flight_prepare returned; on failure the file
 * is closed and removed. */
int ltt_flight_start(const struct ltt_trace_state *t, int shm_fd);
/* From ltt_stop() once the rings are closed: the snapshot at exit, handlers restored, file removed. */
void ltt_flight_stop(void);
/* A facility was registered while recording: its XML goes into the file too. */
void ltt_flight_facility(const struct ltt_facility *fac);

/* ---- snapshot.c ---- */

/* Writes a snapshot of every ring into TRACE/snapshot-NNNN (async-signal-safe: no allocation, stdio
 * or lock; waits at most wait_ns for writers still committing). scratch: one block. out gets the
 * directory. Returns 0 or a negative errno. The caller holds ltt_fl.owner. */
int ltt_snapshot_write(char *out, size_t outlen, char *scratch, uint64_t wait_ns);

/* Takes the snapshot lock for thread tid, waiting at most wait_ns: 1 taken, 0 busy, -EDEADLK when
 * tid holds it already (a signal handler interrupted this thread's snapshot). */
int ltt_flight_lock(int tid, uint64_t wait_ns);
void ltt_flight_unlock(void);
int ltt_flight_tid(void);

/* ---- shm.c ---- */
/* Creates DIR/ltt-PROGRAM-PID.ring of the region's size: descriptor or negative errno. */
int ltt_shm_create(const char *dir, size_t size, char *path, size_t pathlen);
/* Fills the metadata of the region mapped from fd: header words, system.xml, the trace path. */
int ltt_shm_start(struct ltt_region *rg, int fd, const char *trace, const char *sys, size_t syslen);
/* Appends a facility's XML. */
void ltt_shm_facility(const struct ltt_facility *fac);
/* Clean stop: marks the file stopped, frees its pages and removes it. */
void ltt_shm_stop(void);
/* Adds d to the ring file's count of threads that may have written (recorder/shm_layout.h). */
void ltt_shm_threads_add(int d);

/* Removes DIR/flight-PID (ltt_fl.registry) if this process wrote it; async-signal-safe (the
 * fatal-signal handler calls it before the default action kills the process). */
void ltt_flight_registry_remove(void);
/* The fatal-signal handler, before the program's own handler (which may end the process any way):
 * removes the entry, and puts it back (as written) if the program goes on. Async-signal-safe. */
void ltt_flight_registry_remove_keep(void);
void ltt_flight_registry_restore(void);
/* After a crash snapshot: that it could not be written and `ltt recover` of the rings' file is what
 * is left (stderr, one line), or that it was (the rings' file is removed). Async-signal-safe. */
void ltt_flight_say_recover(void);
void ltt_flight_crash_written(void);
/* flight_signal.c, from libltt's sigaction(): while libltt's fatal-signal handler is installed, the
 * program's action for a fatal signal is kept (and *old filled) instead of replacing it: returns 1. */
int ltt_flight_chain(int sig, const struct sigaction *act, struct sigaction *old);
/* Rewrites the registry entry with "own-handler": the program replaced ltt's snapshot signal handler. */
void ltt_flight_registry_own_handler(void);
/* flight_handlers.c: the C library's sigaction(), bypassing libltt's own (which watches the program's
 * calls); flight_signal.c: called by it before the program changes the action of sig. */
int ltt_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
void ltt_flight_handler_check(int sig, const struct sigaction *act);

/* ---- flight_trigger.c ---- */
/* Reads LTT_SNAPSHOT_MIN_INTERVAL_MS and LTT_SNAPSHOT_KEEP: 0 or -EINVAL (why filled in). */
int ltt_flight_trigger_parse(char *why, size_t whylen);
/* Starts libltt's flight thread (`ltt-flight`), which takes the snapshots asked for by the snapshot
 * signal sent to it alone (ltt_fl.thread_tid), from ltt_flight_start(). */
void ltt_flight_thread_start(void);
/* Starts the recorder's thread that serves triggers (and LTT_SNAPSHOT_KEEP); from ltt_start() once
 * recording, when LTT_SNAPSHOT_ON is set. */
void ltt_flight_trigger_start(void);
/* Stops and joins it (ltt_stop(), before the snapshot at exit). */
void ltt_flight_trigger_stop(void);
/* Removes the oldest snapshot directories beyond LTT_SNAPSHOT_KEEP; the caller holds ltt_fl.owner. */
void ltt_flight_prune(void);

/* Raises the trigger request for event id (or LTT_TRIGGER_DURATION), holding the overwriting rings, if
 * none is raised. */
#define LTT_TRIGGER_DURATION	1	/* not an event id (those are >= 20): a duration rule fired */
int ltt_trigger_raise(uint16_t id);	/* 1 when this call raised it */

/* ---- flight_duration.c ---- */
/* Splits the duration rules ("syscall:NAME>DURATION") out of LTT_SNAPSHOT_ON's text on: the event
 * rules left go to rest (restlen bytes). 0, or -EINVAL with why (one line). */
int ltt_trigger_durations_parse(const char *on, char *rest, size_t restlen, char *why, size_t whylen);
/* How many duration rules there are. */
int ltt_trigger_durations(void);
/* The kernel drain thread, for each system call entry and exit of the program it copies (t in ns). */
void ltt_trigger_sys_enter(uint32_t tid, uint32_t nr, uint64_t t_ns);
void ltt_trigger_sys_exit(uint32_t tid, uint32_t nr, uint64_t t_ns);
/* How many of them are system calls' (they need LTT_KERNEL=syscalls). */
int ltt_trigger_syscall_rules(void);
/* Region rules: nonzero while any exists (read by the region calls, recorder/app_region.c). */
extern int ltt_trigger_regions;
/* A region with that label lasted d ns on thread tid (its leave). */
void ltt_trigger_region_left(const char *label, uint64_t d, uint32_t tid);
/* What fired the duration trigger being served ("syscall:read>100ms (took 0.250123 s, tid 7)") into
 * out; frees it for the next one. */
void ltt_trigger_duration_read(char *out, size_t n);

/* ---- flight_signal.c ---- */
/* Reads LTT_SNAPSHOT_SIGNAL into ltt_fl.snap_signal: 0 or a negative errno (why filled in). */
int ltt_flight_signal_parse(char *why, size_t whylen);
void ltt_flight_signals_install(void);
void ltt_flight_signals_restore(void);

#endif
