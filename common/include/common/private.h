/* SPDX-License-Identifier: MIT */
/* common/private.h: private traces (doc/recorder.md "Private traces", doc/security.md). A trace whose
 * directory (or archive) grants nothing to group and others is private: libltt makes --system traces
 * and traces of privileged kernel events so (0700/0600), and what the tools make of one (a pack, an
 * unpacked copy, an export, a saved SQL database) is made the same way, whatever the umask. */
#ifndef LTT_COMMON_PRIVATE_H
#define LTT_COMMON_PRIVATE_H

#include <sys/types.h>

/* 1 when path (a trace directory or archive) exists and has no group or other permission bit. */
int ltt_path_private(const char *path);
/* The modes to create with: 0700/0600 when private, 0777/0666 (the umask applies) when not. */
static inline mode_t ltt_dir_mode(int private_) { return private_ ? 0700 : 0777; }
static inline mode_t ltt_file_mode(int private_) { return private_ ? 0600 : 0666; }
/* Makes path and everything beneath it private (directories 0700, files 0600; symlinks are not
 * followed): for an output written by code that knows nothing of it. 0 or a negative errno. */
int ltt_tree_private(const char *path);

#endif
