/* SPDX-License-Identifier: MIT */
/* Packed traces (doc/format.md section 12, doc/shipping.md): a trace directory as a gzip'd tar with
 * a manifest (info/manifest.xml) inside, written by `ltt pack` and read back by `ltt unpack` and by
 * every reader command through a private temporary directory.
 *
 * Private to libltt-reader and the ltt tool (not installed). Every function returns 0 or a negative
 * errno value; on failure `err` (when not NULL) receives one line "FILE: what" (FILE is the archive,
 * the trace directory or the file at fault, with "offset N" or "entry NAME" when one is known).
 */
#ifndef LTT_READER_ARCHIVE_H
#define LTT_READER_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

/* Limit on the bytes an archive may expand to (sum of its regular files) unless told otherwise. */
#define LTT_ARCHIVE_DEFAULT_MAX_BYTES (4ull << 30)

/* 1 if `path` is a regular file (symbolic links followed) that starts with the gzip magic, 0 otherwise
 * (a directory, another file, a missing path). Never fails. The tar inside is checked by unpacking,
 * so that a damaged archive gets its own message rather than "not a trace directory". */
int ltt_archive_is_packed(const char *path);

/* Extracts the packed trace `path` safely (ltt_archive_unpack's checks, no manifest check) into a new
 * private directory made with mkdtemp under $TMPDIR (or /tmp). On success *dir_out (malloc'd) is the
 * trace directory, "<tmp>/ltt-XXXXXX/NAME", NAME being the archive's top-level directory; free it with
 * ltt_archive_remove_private(). The expansion limit is LTT_ARCHIVE_DEFAULT_MAX_BYTES, or the
 * environment variable LTT_UNPACK_MAX (bytes, with an optional K, M, G or T suffix). */
int ltt_archive_unpack_private(const char *path, char **dir_out, char *err, size_t errlen);

/* Removes the private directory tree made by ltt_archive_unpack_private() and frees `dir`. NULL is a
 * no-op. A private directory still there when the process calls exit(), or is killed by SIGINT,
 * SIGTERM, SIGHUP or SIGPIPE whose action was the default one, is removed then (the library installs
 * handlers for those signals on first use, only where the program left the default action; they
 * remove the directories and re-raise the signal). */
void ltt_archive_remove_private(char *dir);

/* Checks the trace directory against its info/manifest.xml: every file of the trace is listed, every
 * listed file exists with that size and SHA-256. 0 when it matches or when there is no manifest;
 * -EBADMSG on a mismatch or a malformed manifest, another -errno when a file cannot be read. */
int ltt_manifest_verify(const char *trace_dir, char *err, size_t errlen);

/* The same, naming files in messages as "LABEL/cpu/0" rather than with trace_dir: for a trace read
 * from an archive, pass the archive's path so that messages do not show the private directory. */
int ltt_manifest_verify_as(const char *trace_dir, const char *label, char *err, size_t errlen);

/* ---- ltt pack -------------------------------------------------------------------------------- */

struct ltt_pack_options {
	int level;		/* gzip level 1..9; 0 = LTT_PACK_DEFAULT_LEVEL */
	unsigned threads;	/* compressing threads; 0 = one per online CPU (at most 8). The
				 * archive's bytes do not depend on it. */
	/* Called now and then with the bytes of trace data read so far and their total; may be NULL. */
	void (*progress)(uint64_t done, uint64_t total, void *arg);
	void *progress_arg;
};

#define LTT_PACK_DEFAULT_LEVEL 1

/* Writes the trace directory `trace_dir` as a gzip'd tar to `out_path` (one gzip member per MiB of
 * tar, compressed in parallel): every entry under one
 * top-level directory named after the trace directory, info/manifest.xml (generated; one already in
 * the directory is replaced) last. Refuses files outside the trace layout, symbolic links and special
 * files. The archive is written to a temporary file beside `out_path` and renamed at the end; an
 * existing `out_path` is replaced. */
int ltt_archive_pack(const char *trace_dir, const char *out_path, const struct ltt_pack_options *opt,
		     char *err, size_t errlen);

/* ---- ltt unpack ------------------------------------------------------------------------------ */

struct ltt_unpack_options {
	uint64_t max_bytes;	/* expansion limit; 0 = LTT_ARCHIVE_DEFAULT_MAX_BYTES */
	int force;		/* replace an existing target directory */
	int no_verify;		/* skip the manifest check (sizes are still checked by the tar layer) */
	int manifest_found;	/* set on success: 1 if the archive had a manifest (checked unless no_verify) */
};

/* Extracts the packed trace `path` to the directory `target` (which must not exist unless
 * opt->force): entries are written to a temporary directory beside `target`, the manifest is checked,
 * and the temporary directory is renamed to `target` only when everything succeeded; on failure nothing
 * is left behind. Refuses absolute paths, "..", symbolic and hard links, devices, fifos, sockets,
 * entries outside the trace layout (doc/format.md section 1), duplicate entries, and archives that
 * would expand past the limit. -EEXIST if `target` exists and !force. */
int ltt_archive_unpack(const char *path, const char *target, struct ltt_unpack_options *opt,
		       char *err, size_t errlen);

/* The archive's top-level directory name (the trace's name) as stored in its first entry, malloc'd
 * in *name_out; -EBADMSG if the first entry has none. Used by `ltt unpack -C DIR` to name the target. */
int ltt_archive_trace_name(const char *path, char **name_out, char *err, size_t errlen);

/* ---- helpers ---------------------------------------------------------------------------------- */

/* Parses a byte count: decimal digits with an optional K, M, G or T suffix (powers of 1024).
 * -EINVAL when malformed or zero, -ERANGE on overflow. */
int ltt_archive_parse_size(const char *s, uint64_t *out);

/* Makes a pack or unpack under way stop at its next data block with -EINTR, removing what it wrote.
 * Async-signal-safe: meant for SIGINT and SIGTERM handlers. */
void ltt_archive_interrupt(void);

/* Installs handlers that call ltt_archive_interrupt() on SIGINT, SIGTERM and SIGHUP (for the pack and
 * unpack commands: an interrupted run leaves nothing half-written behind). */
void ltt_archive_catch_interrupts(void);

#endif
