/* SPDX-License-Identifier: MIT */
/* reader/write_losses.h: info/write-losses, the recorder's account of what it could not write
 * (doc/format.md section 1, doc/recorder.md "Full disk"). */
#ifndef LTT_READER_WRITE_LOSSES_H
#define LTT_READER_WRITE_LOSSES_H

#include <stdio.h>

#define LTT_NOT_STOPPED "recording did not stop: its end may be missing"

/* 1 when trace directory dir holds info/write-losses empty: the recording never stopped (its process
 * was killed or died before ltt_stop(), or it still records), so its last blocks may be missing;
 * 0 otherwise. */
int ltt_trace_not_stopped(const char *dir);

/* Opens dir/info/write-losses for reading when it is a regular file (never blocks on a FIFO or a
 * device put in its place): the stream, or NULL with errno (ENOENT: none; EINVAL: not a file). */
FILE *ltt_write_losses_open(const char *dir);

#endif
