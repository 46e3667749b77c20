/* SPDX-License-Identifier: MIT */
/* Unpacking packed traces safely: to a named directory (`ltt unpack`) or to a private temporary one
 * (every reader command given a .tar.gz). Entries are checked one by one against the trace layout
 * before anything is written, files are created with O_EXCL | O_NOFOLLOW beneath directory
 * descriptors we made ourselves, and the whole tree is built in a temporary directory that becomes the
 * target only once it is complete (and matches its manifest). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "common/private.h"
#include "common/parse.h"
#include "reader/archive.h"
#include "archive_gunzip.h"
#include "archive_int.h"
#include "manifest.h"

volatile sig_atomic_t ltt_archive_stop_;

void ltt_archive_interrupt(void)
{
	ltt_archive_stop_ = 1;
}

static void interrupt_on_signal(int sig)
{
	(void)sig;
	ltt_archive_interrupt();
}

void ltt_archive_catch_interrupts(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = interrupt_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void ltt_archive_err_(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
}
#define fail ltt_archive_err_

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int ltt_archive_remove_tree_(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0 ? -errno : 0;
}

int ltt_archive_parse_size(const char *s, uint64_t *out)
{
	uint64_t v;
	int ret = ltt_parse_size(s, &v);

	if (ret)
		return ret;
	if (!v)
		return -EINVAL;
	*out = v;
	return 0;
}

int ltt_archive_is_packed(const char *path)
{
	unsigned char magic[2];
	struct stat st;
	int fd, ok;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = read(fd, magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	close(fd);
	return ok;
}

/* ---- private extraction (reader commands) ---------------------------------------------------- */

int ltt_archive_unpack_private(const char *path, char **dir_out, char *err, size_t errlen)
{
	struct extract x = { .path = path, .rootfd = -1, .err = err, .errlen = errlen,
			     .max_bytes = LTT_ARCHIVE_DEFAULT_MAX_BYTES };
	const char *tmp = getenv("TMPDIR");
	const char *lim = getenv("LTT_UNPACK_MAX");
	char *base;
	int ret;

	*dir_out = NULL;
	if (lim && *lim && ltt_archive_parse_size(lim, &x.max_bytes)) {
		fail(err, errlen, "%s: LTT_UNPACK_MAX='%s' is not a size (bytes, K, M, G or T)", path, lim);
		return -EINVAL;
	}
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&base, "%s/ltt-XXXXXX", tmp) < 0) {
		fail(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (!mkdtemp(base)) {
		ret = -errno;
		fail(err, errlen, "%s: cannot create a temporary directory in %s: %s", path, tmp, strerror(errno));
		free(base);
		return ret;
	}
	ltt_archive_private_register_(base);
	x.parentfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = x.parentfd < 0 ? -errno : ltt_archive_extract_all_(&x);
	if (x.parentfd < 0)
		fail(err, errlen, "%s: %s", base, strerror(-ret));
	else
		close(x.parentfd);
	if (!ret && asprintf(dir_out, "%s/%s", base, x.name) < 0) {
		*dir_out = NULL;
		ret = -ENOMEM;
		fail(err, errlen, "%s: out of memory", path);
	}
	ltt_archive_extract_free_(&x);
	if (ret) {
		ltt_archive_private_unregister_(base);
		ltt_archive_remove_tree_(base);
	}
	free(base);
	return ret;
}

void ltt_archive_remove_private(char *dir)
{
	char *slash;

	if (!dir)
		return;
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		/* Only ever a directory ltt_archive_unpack_private() made. */
		if (!strncmp(strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, "ltt-", 4)) {
			ltt_archive_private_unregister_(dir);
			ltt_archive_remove_tree_(dir);
		}
	}
	free(dir);
}

/* ---- ltt unpack -------------------------------------------------------------------------------- */

int ltt_archive_trace_name(const char *path, char **name_out, char *err, size_t errlen)
{
	struct extract x = { .path = path, .parentfd = -1, .rootfd = -1, .err = err, .errlen = errlen };
	struct archive_entry *e;
	char rel[4096];
	int r, ret;

	*name_out = NULL;
	ret = ltt_archive_open_(&x);
	if (ret)
		return ret;
	r = archive_read_next_header(x.a, &e);
	if (r == ARCHIVE_EOF) {
		fail(err, errlen, "%s: empty archive", path);
		ret = -EBADMSG;
	} else if (r < ARCHIVE_WARN) {
		ret = ltt_archive_failure_(&x, "not a tar archive");
	} else {
		ret = ltt_archive_check_path_(&x, archive_entry_pathname(e), rel, sizeof(rel), name_out);
	}
	ltt_archive_close_(&x);
	return ret;
}

int ltt_archive_unpack(const char *path, const char *target, struct ltt_unpack_options *opt,
		       char *err, size_t errlen)
{
	struct extract x = { .path = path, .parentfd = -1, .rootfd = -1, .err = err, .errlen = errlen };
	char *t = strdup(target), *tmp = NULL, *slash;
	struct stat st;
	int exists, ret;

	if (!t) {
		fail(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	for (size_t n = strlen(t); n > 1 && t[n - 1] == '/'; n--)
		t[n - 1] = '\0';
	exists = lstat(t, &st) == 0;
	if (exists && !S_ISDIR(st.st_mode)) {
		fail(err, errlen, "%s: exists and is not a directory", t);
		ret = -ENOTDIR;
		goto out;
	}
	if (exists && !opt->force) {
		fail(err, errlen, "%s: already exists (--force replaces it)", t);
		ret = -EEXIST;
		goto out;
	}
	slash = strrchr(t, '/');
	ret = asprintf(&tmp, "%.*s%s.%.200s.unpack-XXXXXX", slash ? (int)(slash - t) : 0, t,
		       slash ? "/" : "", slash ? slash + 1 : t);
	if (ret < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		fail(err, errlen, "%s: out of memory", path);
		goto out;
	}
	if (!mkdtemp(tmp)) {
		ret = -errno;
		if (errno == ENOENT)
			fail(err, errlen, "%s: the directory %.*s does not exist (create it first, or give another path)",
			     t, slash ? (int)(slash - t) + (slash == t) : 1, slash ? t : ".");
		else
			fail(err, errlen, "%s: cannot create a temporary directory beside it: %s", t, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	/* mkdtemp makes it 0700; the trace gets the usual directory mode, unless it is private: its archive
	 * grants nothing to others (ltt pack of a private trace), or its entries (below) */
	x.private_ = ltt_path_private(path);
	if (!x.private_)
		chmod(tmp, 0755);
	x.rootfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x.rootfd < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	x.max_bytes = opt->max_bytes ? opt->max_bytes : LTT_ARCHIVE_DEFAULT_MAX_BYTES;
	x.hash = !opt->no_verify;
	ret = ltt_archive_extract_all_(&x);
	if (!ret && x.has_manifest && x.hash)
		ret = ltt_archive_check_manifest_(&x);
	if (!ret && x.private_ && (ret = ltt_tree_private(tmp)))	/* what came before a private entry */
		fail(err, errlen, "%s: %s", tmp, strerror(-ret));
	if (ret)
		goto out;
	opt->manifest_found = x.has_manifest;
	if (exists) {
		/* Swap the new tree in, then remove the old one, now at tmp. */
		ret = renameat2(AT_FDCWD, tmp, AT_FDCWD, t, RENAME_EXCHANGE);
		if (ret < 0 && errno == EINVAL)
			ret = ltt_archive_remove_tree_(t) ? -1 : rename(tmp, t);
	} else {
		ret = renameat2(AT_FDCWD, tmp, AT_FDCWD, t, RENAME_NOREPLACE);
		if (ret < 0 && errno == EINVAL)
			ret = rename(tmp, t);
		if (!ret) {
			free(tmp);
			tmp = NULL;
		}
	}
	if (ret < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", t, errno == EEXIST || errno == ENOTEMPTY ?
		     "appeared while unpacking (--force replaces it)" : strerror(errno));
	}
out:
	ltt_archive_extract_free_(&x);
	if (tmp) {
		ltt_archive_remove_tree_(tmp);
		free(tmp);
	}
	free(t);
	return ret;
}
