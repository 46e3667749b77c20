/* SPDX-License-Identifier: MIT */
/* recover.h: `ltt recover`: rebuilding a trace from the ring file a flight-mode process left under
 * LTT_SHM_DIR (recorder/shm_layout.h, doc/flight-recorder.md "Recovery"). */
#ifndef LTT_TOOLS_RECOVER_H
#define LTT_TOOLS_RECOVER_H

#include <stddef.h>
#include <stdint.h>

/* What a ring file says about its process. */
enum recover_state {
	RECOVER_BAD,		/* not a ring file (or damaged header) */
	RECOVER_RUNNING,	/* its process is alive: never touched */
	RECOVER_DEAD,		/* its process died while recording: recoverable */
	RECOVER_STOPPED,	/* its process stopped recording cleanly */
};

struct recover_file_info {
	enum recover_state state;
	int pid;
	char program[33];
	uint32_t ncpu, block_size, blocks;
	uint64_t size;
	uint64_t start_ticks;	/* the process's start time (field 22 of /proc/PID/stat), 0: unknown */
	unsigned uid;		/* the file's owner: the user the process recorded as */
	char why[256];		/* RECOVER_BAD: what is wrong */
};

/* Reads the header of a ring file (bounded reads, never trusts it). Returns 0 or a negative errno. */
int recover_probe(const char *path, struct recover_file_info *info);
/* A dead process's `ltt snapshot` entry DIR/flight-PID (recorder/flight_control.c), left by a
 * kill: removed when the start time it records is the ring file's (so it is that process's, not a
 * later one's with the same pid). Returns 1 if removed, else 0. */
int recover_forget_registry(const struct recover_file_info *info);

struct recover_stats {
	uint64_t blocks;		/* blocks written, summary blocks included */
	uint64_t salvaged;		/* blocks rebuilt from a partly committed block */
	uint64_t torn;			/* events reserved but never committed, dropped */
	uint64_t overwritten_blocks, overwritten_events;
	uint64_t unreadable_blocks;	/* retained blocks whose content could not be trusted */
	uint64_t opening;		/* blocks being opened at the death: reserved, nothing committed
					 * in them (their opener's event is counted torn); not damage */
	uint64_t lost_facilities;	/* facilities whose XML is missing or does not parse: their
					 * events are not recovered */
};

/* Rebuilds the trace directory out (which must not exist) from the ring file at path. On failure
 * returns a negative errno with one line in err: "offset N: what" or what went wrong. */
int recover_rebuild(const char *path, const char *out, struct recover_stats *st, char *err, size_t errlen);

#endif
