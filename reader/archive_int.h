/* SPDX-License-Identifier: MIT */
/* Internals shared by archive.c and archive_extract.c (unpacking) and archive_pack.c (packing). */
#ifndef LTT_READER_ARCHIVE_INT_H
#define LTT_READER_ARCHIVE_INT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Set by ltt_archive_interrupt() from a signal handler; polled between data blocks. */
extern volatile sig_atomic_t ltt_archive_stop_;

/* snprintf into err when err is not NULL. */
void ltt_archive_err_(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Removes a directory tree without following symbolic links; 0 or -errno. */
int ltt_archive_remove_tree_(const char *path);

/* Private directories (archive_private.c): registered from creation to removal, so that they are
 * removed at exit() and on fatal default-action signals too. */
void ltt_archive_private_register_(const char *base);
void ltt_archive_private_unregister_(const char *base);

/* ---- the extraction engine (archive_extract.c), driven by archive.c's unpack entry points ---- */

struct archive;
struct ltt_gunzip;
struct ltt_manifest_file;

/* One archive being read into a trace directory. */
struct extract {
	const char *path;		/* the archive, for messages */
	struct archive *a;
	struct ltt_gunzip *gz;		/* a's input */
	int parentfd;			/* where the trace directory is created (private mode), or -1 */
	int rootfd;			/* the trace directory being filled; -1 until made */
	int subfd[5];			/* its subdirectories (subdirs[]), -1 until made */
	char *name;			/* the archive's top-level directory */
	uint64_t max_bytes, total, entries;
	int hash;			/* compute digests for the manifest check */
	int has_manifest, has_system;
	int private_;			/* a private trace (its archive 0600, or an entry granting nothing to
					 * others): written 0700/0600 (common/private.h) */
	struct ltt_manifest_file *found;
	size_t nfound, cap;
	char *err;
	size_t errlen;
};

/* Opens x->path for reading (x->a, x->gz); on failure the message is set and nothing is left open. */
int ltt_archive_open_(struct extract *x);
void ltt_archive_close_(struct extract *x);
/* Sets the message for a libarchive failure at the current offset; returns a negative errno. */
int ltt_archive_failure_(struct extract *x, const char *what);
/* Checks an entry's path and splits it: *name_out the top-level directory, rel the rest. */
int ltt_archive_check_path_(struct extract *x, const char *p, char *rel, size_t rellen, char **name_out);
/* Reads the whole archive into the trace directory (x->rootfd, or made under x->parentfd). */
int ltt_archive_extract_all_(struct extract *x);
void ltt_archive_extract_free_(struct extract *x);
/* Checks the extracted trace (x->rootfd) against its manifest and the digests taken while writing. */
int ltt_archive_check_manifest_(struct extract *x);

#endif
