/* SPDX-License-Identifier: MIT */
/* A dummy perf event of the calling thread and its first mapped page (struct perf_event_mmap_page),
 * where the kernel publishes the conversion of its clock to TSC cycles: asked by libltt before it
 * stamps kernel and user events with one clock (recorder/kernel_clock.c) and by ltt record before it
 * records the threads' switches with --functions (tools/record/cmd_record.c). */
#ifndef LTT_COMMON_PERF_PAGE_H
#define LTT_COMMON_PERF_PAGE_H

#include <stddef.h>

/* Opens the event (user space only, close-on-exec) and maps its page read-only: the event's fd, with
 * *page and *len set (munmap(*page, *len) and close the fd after use), or -errno. */
int ltt_perf_dummy_page(const void **page, size_t *len);

#endif
