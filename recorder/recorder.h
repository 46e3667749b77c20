/* recorder/recorder.h: what the parts of libltt share (private). */
#ifndef LTT_RECORDER_RECORDER_H
#define LTT_RECORDER_RECORDER_H

#include <limits.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "ring.h"

/* The trace being recorded (one per process); valid while ltt_rt.region is set and during stop. */
struct ltt_trace_state {
	char path[PATH_MAX];		/* the trace directory */
	enum ltt_mode mode;
	struct ltt_region *rg;
	uint32_t block_size, blocks, ncpu;
	int flush_ms;			/* ltt_options.flush_ms */
};
extern struct ltt_trace_state ltt_cur;

/* Prints "ltt: message" on stderr (one line). */
void ltt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* facility.c */
void ltt_registry_lock(void);
void ltt_registry_unlock(void);
/* Writes the facility_load and eventdefs/ file of every registered facility (at start). */
void ltt_facilities_emit_all(void);
/* Discard mode: seals the open block of control ring `which` so the consumer writes it now. */
void ltt_control_seal(unsigned which);

/* core.c: the core facility, registered by libltt itself, and its events. */
extern struct ltt_facility ltt_core_facility;
enum { LTT_CORE_PROCESS, LTT_CORE_INTERRUPT, LTT_CORE_THREAD_START, LTT_CORE_THREAD_EXIT,
       LTT_CORE_THREAD_NAME, LTT_CORE_PROCESS_FORK,
       LTT_CORE_SAMPLING, LTT_CORE_PROCESS_CPU, LTT_CORE_THREAD_CPU, LTT_CORE_PAUSE, LTT_CORE_RESUME,
       LTT_CORE_MAPPING, LTT_CORE_STACK_SAMPLE,
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
/* The ring of an event of fac (LTT_EVENT_PERSISTENT: a control ring) in region rg. */
struct ltt_ring *ltt_event_ring(struct ltt_region *rg, const struct ltt_facility *fac, unsigned index,
				unsigned flags);

/* tracedir.c */
/* Makes the trace directory for LTT_TRACE=path into out (flight: eventdefs/ and info/ only, the
 * tracefiles go in its snapshot-NNNN/ directories); *created: the directory out was made here
 * (a failed start removes it with ltt_tracedir_remove(), which removes only what libltt writes). */
int ltt_tracedir_make(const char *path, char *out, size_t outlen, int flight, int *created);
void ltt_tracedir_remove(const char *dir);
int ltt_tracedir_system_xml(const struct ltt_trace_state *t);
int ltt_tracedir_facility_xml(const char *dir, const struct ltt_facility *fac);

/* consumer.c */
int ltt_consumer_start(struct ltt_trace_state *t);
/* Writes every block left (waiting up to 2 s for writers still committing), the pending lost
 * counts, closes the files and joins the thread. The rings must be closed. */
void ltt_consumer_stop(void);
/* The consumer thread's id (0 if not running): not a thread of the traced program. */
uint32_t ltt_consumer_tid(void);

#endif
