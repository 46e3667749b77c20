/* SPDX-License-Identifier: MIT */
/* The I/O model: read and write system calls per process, thread and file, from the kernel facility's
 * syscall_entry/syscall_exit (the fd and the bytes) and the fd facility (what each fd refers to:
 * doc/format.md section 13 "File descriptors"), behind `ltt stats --io` and `ltt sql`'s io table
 * (doc/cli.md). As lttng-analyses' iousagetop and iolatencytop, with the file followed per process:
 *
 * - fd.state names the fds open at start; an open call's fd (its return value) is named by the file
 *   name the program passed (fd.open) or, when libltt read it, the fd's link (fd.path how=open: the
 *   kernel's own name, absolute); dup, dup2, dup3 and fcntl(F_DUPFD) copy a name to the new fd, close
 *   forgets it; an fd used with no name yet is named by fd.path how=use (pipes, sockets, fds the table
 *   missed), else "fd N".
 * - a call is counted at its exit, with its entry of the same thread: latency entry to exit, bytes
 *   the return value when positive (sendmmsg and recvmmsg return messages: bytes not counted).
 *
 * The process of a thread is the scheduling model's (toolkit/sched_model.h: core.process,
 * core.thread_start, state dumps, forks), asked at each call. After kernel events were lost, an exit
 * whose entry is gone is counted as cut (no latency), and an fd's name may be stale (a close or dup
 * lost): the views say so with the loss line. */
#ifndef LTT_TOOLKIT_IO_MODEL_H
#define LTT_TOOLKIT_IO_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/sched_model.h"

enum io_op { IO_READ, IO_WRITE, IO_NOPS };
const char *io_op_name(enum io_op op);

/* One completed read or write call. */
struct io_call {
	unsigned trace;
	uint32_t pid, tid;	/* pid SCHED_TID_NONE when not known */
	int32_t fd;
	uint64_t handle;	/* the open file the fd referred to (an open, or an fd first seen): shared by
				 * its dup copies, never reused in a trace set; 0 never */
	const char *file;	/* its name (valid until the model is freed) */
	enum io_op op;
	uint32_t nr;		/* the system call */
	uint64_t entry_ns, exit_ns;
	int64_t ret;
	uint64_t bytes;		/* ret when positive and a byte count, else 0 */
};

/* Per (trace, pid, tid, file, op): the calls and their latencies. */
struct io_row {
	unsigned trace;
	uint32_t pid, tid;
	const char *file;
	enum io_op op;
	uint64_t calls, errors, bytes;	/* errors: returned a negative errno (counted in calls) */
	uint64_t *dur;			/* each call's latency, sorted by io_model_finish */
	size_t ndur, capdur;
};

struct io_hooks {
	void *arg;
	int (*call)(void *arg, const struct io_call *c);	/* each completed read or write */
};

struct io_model;

/* keep_rows: aggregate the rows (stats); 0 for a stream that only wants the hook. */
int io_model_new(struct io_model **out, const struct io_hooks *hooks, int keep_rows);
void io_model_free(struct io_model *m);
/* 1 when the event type is one the model reads (kernel system calls, the fd facility). */
int io_model_wants(const struct ltt_event_type *type);
/* Every event in merge order, after the scheduling model sm took it (kev: its decoding, or NULL).
 * lost: the event is a loss record of a kernel stream (toolkit/losses.h). 0, -ENOMEM or a hook's. */
int io_model_event(struct io_model *m, struct sched_model *sm, const struct ltt_event *ev, int kernel_loss);
/* Sorts the rows (trace, pid, tid, file, op) and their latencies. */
int io_model_finish(struct io_model *m);
size_t io_model_rows(const struct io_model *m, struct io_row ***out);
/* Exits whose entry was lost (no latency: not in the rows) and entries left open at the end. */
uint64_t io_model_cut(const struct io_model *m);
/* 1 when the traces hold the fd facility (names beyond "fd N" can be known). */
int io_model_named(const struct io_model *m);

#endif
