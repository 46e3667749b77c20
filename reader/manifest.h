/* SPDX-License-Identifier: MIT */
/* The trace layout (doc/format.md section 1) and info/manifest.xml (section 12), shared by packing,
 * unpacking and `ltt check`. Private to libltt-reader. */
#ifndef LTT_READER_MANIFEST_H
#define LTT_READER_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <openssl/evp.h>

#define LTT_SHA256_HEX_LEN 64

/* SHA-256 of the manifest's files, by OpenSSL libcrypto: a context from ltt_sha256_new() (NULL when out
 * of memory), fed with EVP_DigestUpdate(), ended by ltt_sha256_end(), which writes the lowercase hex
 * digest and frees the context (-EIO if libcrypto failed; the context is freed either way). */
EVP_MD_CTX *ltt_sha256_new(void);
int ltt_sha256_end(EVP_MD_CTX *c, char hex[LTT_SHA256_HEX_LEN + 1]);
/* The same for one buffer. */
int ltt_sha256_hex_of(const void *data, size_t len, char hex[LTT_SHA256_HEX_LEN + 1]);

#define LTT_MANIFEST_PATH "info/manifest.xml"
#define LTT_MANIFEST_MAX_BYTES (16u << 20)	/* larger: refused unread (100,000 files fit) */

/* ---- layout ---------------------------------------------------------------------------------- */

enum ltt_layout_kind {
	LTT_LAYOUT_OUTSIDE = 0,	/* not part of a trace */
	LTT_LAYOUT_DIR,		/* the trace directory itself ("") or info, eventdefs, control, cpu */
	LTT_LAYOUT_FILE,	/* info/system.xml, info/bookmarks.xml, info/manifest.xml, eventdefs/X.xml */
	LTT_LAYOUT_TRACEFILE,	/* control/X, cpu/N */
};

/* What `rel` (relative to the trace directory, '/'-separated, no leading or trailing '/') is. */
enum ltt_layout_kind ltt_layout_kind(const char *rel);

struct ltt_layout_entry {
	char *rel;		/* relative path; "" for the trace directory itself */
	enum ltt_layout_kind kind;
	uint64_t size;		/* files: st_size */
	struct timespec mtime;
};

struct ltt_layout {
	struct ltt_layout_entry *e;	/* directories before their files, in the canonical order */
	size_t n;
	uint64_t file_bytes;		/* sum of the files' sizes */
	int has_manifest;		/* info/manifest.xml exists (it is never listed in e) */
};

#define LTT_LAYOUT_STRICT 1u	/* refuse anything outside the layout (else skip it silently) */

/* Lists the trace directory `dir` in the canonical order: the directory, info/, info/system.xml,
 * info/bookmarks.xml, eventdefs/ and its files by name, control/ with facilities, processes,
 * interrupts then the others by name, cpu/ and cpu/N by N. Symbolic links and special files are
 * refused (STRICT) or skipped. -ENOTDIR if dir is not a directory. */
int ltt_layout_list(const char *dir, unsigned flags, struct ltt_layout *out, char *err, size_t errlen);
void ltt_layout_free(struct ltt_layout *l);

/* ---- manifest ---------------------------------------------------------------------------------- */

#define LTT_MANIFEST_NO_COUNT UINT64_MAX

struct ltt_manifest_file {
	char *path;			/* relative to the trace directory */
	uint64_t size;
	char sha256[LTT_SHA256_HEX_LEN + 1];	/* lowercase hex */
	/* tracefiles: the counts of struct ltt_counts (ltt/reader.h), or NO_COUNT */
	uint64_t events;		/* events (builtin records not counted) */
	uint64_t lost;			/* the events_lost counts */
	uint64_t overwritten;		/* the blocks_lost records' events */
};

struct ltt_manifest {
	char *ltt_version;
	char *host;
	uint64_t reader_problems;	/* problems the reader met while counting, or NO_COUNT */
	int not_stopped;		/* the recording never stopped (reader/write_losses.h) */
	struct ltt_manifest_file *files;
	size_t n;
};

/* Writes the manifest as XML into a malloc'd buffer (*xml, *len). */
int ltt_manifest_format(const struct ltt_manifest *m, char **xml, size_t *len);

/* Parses a manifest; `label` names it in err ("TRACE/info/manifest.xml"). -EBADMSG when malformed. */
int ltt_manifest_parse(const char *xml, size_t len, const char *label, struct ltt_manifest *m,
		       char *err, size_t errlen);
void ltt_manifest_free(struct ltt_manifest *m);

/* Compares what was found (paths, sizes and digests of `found`, n of them) with the manifest.
 * Messages name files as "PREFIX/path". 0 when every file matches and none is missing or extra;
 * otherwise -EBADMSG with the first problem in err (and how many more). */
int ltt_manifest_compare(const struct ltt_manifest *m, const struct ltt_manifest_file *found, size_t n,
			 const char *prefix, char *err, size_t errlen);

#endif
