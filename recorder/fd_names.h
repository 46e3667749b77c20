/* SPDX-License-Identifier: MIT */
/* recorder/fd_names.h: the fd facility (eventdefs/fd.xml): what the traced program's file descriptors
 * refer to, read from /proc/PID/fd while system calls are recorded (doc/format.md section 13 "File
 * descriptors"). Private to libltt. */
#ifndef LTT_RECORDER_FD_NAMES_H
#define LTT_RECORDER_FD_NAMES_H

#include <stdint.h>

extern struct ltt_facility ltt_fd_facility;

/* kernel.c, at ltt_kernel_open with system calls recorded: registers the facility. */
void ltt_fd_open(void);
/* kernel.c, at ltt_kernel_begin: fd.state for every fd of the process (process scope). */
void ltt_fd_state_dump(void);
/* kernel_drain.c, after a system call's entry (exit 0, args) or exit (exit 1, ret) of thread tid of
 * process pid was written into kernel/c: the fd.path events it calls for, at the ring's time. */
void ltt_fd_syscall(unsigned c, uint32_t pid, uint32_t tid, int exit, uint32_t nr, const uint64_t *args,
		    int64_t ret);

#endif
