/* SPDX-License-Identifier: MIT */
/* recorder/recorder.h: what the parts of libltt share (private). */
#ifndef LTT_RECORDER_RECORDER_H
#define LTT_RECORDER_RECORDER_H

#include <limits.h>
#include <sys/types.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "ring.h"

/* The trace being recorded (one per process); valid while ltt_rt.region is set and during stop. */
struct ltt_trace_state {
	char path[PATH_MAX];		/* the trace directory */
	enum ltt_mode mode;
	struct ltt_region *rg;
	uint32_t block_size, blocks, ncpu;
	int flush_ms;			/* ltt_options.flush_ms: 0 LTT_DEFAULT_FLUSH_MS, < 0 never */
	/* Where tracefiles, eventdefs/ and info/ go: path, or with rotation the chunk being written
	 * (path/chunk-NNNN.part); changed by the consumer under the registry lock (facility.c). */
	char dir[PATH_MAX];
	unsigned chunk;			/* rotation: the number of the chunk being written; 0: no rotation */
	uint64_t rotate_size, max_size;	/* ltt_options */
	unsigned rotate_seconds;
	pid_t pid; /* the process that records it (not a vfork child sharing ltt_cur) */
};
extern struct ltt_trace_state ltt_cur;

#define LTT_DEFAULT_FLUSH_MS 1000	/* LTT_FLUSH_MS when not set (doc/recorder.md "Flush") */

/* Prints "ltt: message" on stderr (one line). */
void ltt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* In a setuid, setgid or file-capability process, one ltt_warn line when LTT_* variables were set:
 * they are ignored, libltt reads its environment with secure_getenv() (recorder/secure_env.c). */
void ltt_secure_env_note(void);

/* A private trace (doc/recorder.md "Private traces"): one that holds kernel events other users may not
 * read (--system scope, or a process allowed more than its own switch records: CAP_PERFMON,
 * CAP_SYS_ADMIN, perf_event_paranoid -1) is made 0700/0600, whatever the umask. Set by ltt_start()
 * before anything of the trace is created; read by every mkdir and open of the trace's files
 * (async-signal-safe: a plain int). */
extern int ltt_trace_private;
#define LTT_TRACE_DIR_MODE	((mode_t)(ltt_trace_private ? 0700 : 0777))
#define LTT_TRACE_FILE_MODE	((mode_t)(ltt_trace_private ? 0600 : 0666))

/* facility.c */
void ltt_registry_lock(void);
void ltt_registry_unlock(void);
/* The first registered facility (then ->next); under the registry lock, or lock-free with ltt_read()
 * of each ->next (the list only grows: recorder/rules.c ltt_events_gate()). */
struct ltt_facility *ltt_registry_first(void);
/* Writes the facility_load and eventdefs/ file of every registered facility (at start). */
void ltt_facilities_emit_all(void);
/* The same, the caller holding the registry lock (rotation: recorder/consumer.c). */
void ltt_facilities_emit_locked(void);
/* Discard mode: seals the open block of control ring `which` so the consumer writes it now. */
void ltt_control_seal(unsigned which);

/* core.c: the core facility, registered by libltt itself, and its events. */
extern struct ltt_facility ltt_core_facility;
enum { LTT_CORE_PROCESS, LTT_CORE_INTERRUPT, LTT_CORE_THREAD_START, LTT_CORE_THREAD_EXIT,
       LTT_CORE_THREAD_NAME, LTT_CORE_PROCESS_FORK,
       LTT_CORE_SAMPLING, LTT_CORE_PROCESS_CPU, LTT_CORE_THREAD_CPU, LTT_CORE_PAUSE, LTT_CORE_RESUME,
       LTT_CORE_MAPPING, LTT_CORE_STACK_SAMPLE, LTT_CORE_EVENT_RULES,
       LTT_CORE_NEVENTS };
uint32_t ltt_checksum_strings(const char *const *strs, unsigned n);
/* Records core event index with payload[len] (flags: LTT_EVENT_PERSISTENT or 0) while recording. */
void ltt_core_emit(unsigned index, const void *payload, size_t len, unsigned flags);
void ltt_core_emit_processes(void);
void ltt_core_emit_interrupts(void);
void ltt_core_thread_start(void);
void ltt_core_thread_exit(void);
void ltt_core_thread_name(uint32_t tid, const char *name);
void ltt_core_process_fork(uint32_t pid, uint32_t child);
/* Waits on locks (recorder/waits.c): reads LTT_WAITS, finds the C library's lock functions. Called by
 * the core facility's constructor, which also makes a static link of libltt.a take waits.o (whose
 * pthread_mutex_lock ... then interpose the C library's even when a shared library linked before the
 * archive, such as a sanitizer's runtime, defines them). */
void ltt_waits_init(void);
/* The ring of an event of fac (LTT_EVENT_PERSISTENT: a control ring) in region rg. */
struct ltt_ring *ltt_event_ring(struct ltt_region *rg, const struct ltt_facility *fac, unsigned index,
				unsigned flags);

/* tracepath.c: where the trace of LTT_TRACE=path goes (the rule: recorder/tracepath.c, doc/recorder.md
 * "Where the trace goes"). Makes the new directory out; when path is a trace already, out is
 * path.N and taken the trace there (else ""); why: the cause and fix when refused (else unchanged). */
int ltt_tracepath_make(const char *path, char *out, size_t outlen, char *taken, size_t takenlen, char *why,
		       size_t whylen);
/* The program's name (/proc/self/comm, '/' and ' ' as '_'; "prog" when unknown). */
int ltt_program_name(char *buf, size_t n);

/* tracedir.c */
/* Makes the trace directory for LTT_TRACE=path into out by ltt_tracepath_make() (flight: eventdefs/
 * and info/ only, the tracefiles go in its snapshot-NNNN/ directories); *created: the directory out
 * was made here (a failed start removes it with ltt_tracedir_remove(), which removes only what
 * libltt writes). */
enum { LTT_DIR_TRACE, LTT_DIR_FLIGHT, LTT_DIR_CHUNKS };	/* ltt_tracedir_make's kind */
int ltt_tracedir_make(const char *path, char *out, size_t outlen, int kind, int *created, char *taken,
		      size_t takenlen, char *why, size_t whylen);
void ltt_tracedir_remove(const char *dir);
int ltt_tracedir_system_xml(const struct ltt_trace_state *t);
/* info/system.xml of t in dir; chunk > 0: a chunk of a rotating trace (ltt_chunk="N"). */
int ltt_tracedir_system_xml_in(const struct ltt_trace_state *t, const char *dir, unsigned chunk);

/* control.c: the start/stop lock, taken by the consumer around a rotation (trylock: 0 when taken). */
int ltt_control_trylock(void);
/* Returns when no other thread is in ltt_stop() (recorder/exit.c). */
void ltt_stop_wait(void);
void ltt_control_unlock(void);

/* rotate.c (doc/recorder.md "Rotation") */
/* Makes the directory of chunk n (complete but for its tracefiles; info/system.xml from chunk 2 on)
 * into dir: t->path/chunk-0001.part for the first, else t->path/.chunk-NNNN.new, which readers do not
 * look at, until ltt_chunk_publish() renames it chunk-NNNN.part (and updates dir). */
int ltt_chunk_make(struct ltt_trace_state *t, unsigned n, char *dir, size_t len);
int ltt_chunk_publish(struct ltt_trace_state *t, unsigned n, char *dir, size_t len);
/* Disk space of a directory: allocated bytes (st_blocks) of its files and directories, as du counts. */
uint64_t ltt_chunk_du(const char *dir);
/* Renames chunk n's .part directory to chunk-NNNN and counts its size for the bound. */
int ltt_chunk_seal(struct ltt_trace_state *t, unsigned n);
/* Removes the oldest sealed chunks (each after its line in chunks-removed) while their total plus
 * `coming` bytes passes t->max_size, keeping at least `keep` of them. */
void ltt_chunks_bound(struct ltt_trace_state *t, uint64_t coming, unsigned keep);
int ltt_tracedir_facility_xml(const char *dir, const struct ltt_facility *fac);

/* consumer.c */
int ltt_consumer_start(struct ltt_trace_state *t, char *why, size_t whylen);
/* Writes every block left (waiting up to 2 s for writers still committing), the pending lost
 * counts, closes the files and joins the thread. The rings must be closed. */
void ltt_consumer_stop(void);
/* What the trace lost, summed by the consumer from the blocks it handled (discard mode): the
 * events_lost counts by cause, the events of blocks never committed and of blocks that could not be
 * written. Complete after ltt_consumer_stop(); zeroed by ltt_consumer_start(). */
struct ltt_losses_said {
	uint64_t lost[LTT_LOST_CAUSES];
	uint64_t unwritten;	/* blocks whose writers never committed them (stop's wait ran out) */
	uint64_t failed;	/* blocks the disk refused (info/write-losses) */
};
void ltt_consumer_losses(struct ltt_losses_said *out);
/* loss_report.c: after a discard-mode trace stopped, one line saying what it lost, its causes and the
 * settings that would have kept it: on stderr, or to `ltt record` (LTT_RECORD_REPORT) which says it. */
void ltt_loss_report(const char *path, const struct ltt_region *rg);
/* Flight mode, at stop (the rings closed, not yet released): the same line for the drops the rings'
 * kept history reports. */
void ltt_loss_report_kept(const char *path, const struct ltt_region *rg);
/* control.c: appends line (with its newline) to the file LTT_RECORD_REPORT names; 0 when there is
 * none (not run by `ltt record`), 1 when written. */
int ltt_record_report(const char *line);
/* control.c: starts recording from the environment (LTT_TRACE) as at load, after an exec that failed:
 * 0 or a negative errno (said on stderr). */
int ltt_env_restart(void);
/* exec.c (doc/recorder.md "Programs that exec"): the trace of this process's image before its exec
 * (LTT_EXEC_FROM) moved out of the way before the new trace is made, then into it as before-exec/ (or
 * back when this image does not record); whether this copy of libltt is a preloaded libltt.so in a
 * program that has its own linked in statically (then only the program's records). */
void ltt_exec_adopt_begin(void);
void ltt_exec_adopt_end(void);
int ltt_exec_redundant(void);
/* From _exit(): the recording stopped as at exit, unless a signal is blocked (a handler's _exit). */
void ltt_exec_exit_stop(void);
/* The consumer thread's id (0 if not running): not a thread of the traced program. */
uint32_t ltt_consumer_tid(void);

#endif
