/* SPDX-License-Identifier: MIT */
/* ltt record: after the program ended (tools/record/after.c). */
#ifndef LTT_TOOLS_RECORD_AFTER_H
#define LTT_TOOLS_RECORD_AFTER_H

#include <sys/types.h>

/* The program pid, reaped, recorded into out: removes its registry entry if it left one, and says
 * where its rings' file is (LTT_SHM_DIR) if it left one. */
void record_after(pid_t pid, const char *out, const char *prog);

#endif
