/* SPDX-License-Identifier: MIT */
/* Packing a trace directory: a gzip'd pax (ustar when nothing needs more) tar whose entries sit under
 * one top-level directory named after the trace, in the layout's canonical order, with
 * info/manifest.xml generated and written last (doc/format.md section 12). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "common/private.h"
#include "reader/archive.h"
#include "archive_int.h"
#include "manifest.h"
#include "archive_count.h"
#include "archive_gzwrite.h"

#define fail ltt_archive_err_
#define PACK_BUF (1u << 20)
#define PROGRESS_STEP (8u << 20)	/* call the progress callback about this often */

struct pack {
	const char *dir;		/* the trace directory, as given (trailing '/' removed) */
	const char *out;		/* the archive being written, for messages */
	char name[NAME_MAX + 1];	/* top-level directory in the archive */
	struct archive *a;
	struct archive_entry *entry;
	struct ltt_gzwrite *gz;		/* the gzip layer under a's tar stream */
	unsigned char *buf;
	const struct ltt_pack_options *opt;
	uint64_t done, total, next_progress;
	char *err;
	size_t errlen;
	int private_;			/* the trace is private: so is the archive (common/private.h) */
};

/* libarchive failed while writing the archive. A system error (a full file system, a file size limit,
 * an I/O error) is the archive's, never the source file's being added (`what`): the message names the
 * archive alone. */
static int archive_failed(struct pack *p, const char *what)
{
	const char *msg = archive_error_string(p->a);
	int e = archive_errno(p->a);

	if (e == ENOSPC || e == EDQUOT || e == EFBIG || e == EIO || e == EROFS || e == EPIPE)
		fail(p->err, p->errlen, "%s: cannot write the archive: %s", p->out, strerror(e));
	else
		fail(p->err, p->errlen, "%s: %s: %s", p->out, what, msg ? msg : "unknown error");
	return e > 0 ? -e : -EIO;
}

static int write_header(struct pack *p, const char *rel, int dir, uint64_t size, time_t mtime)
{
	char path[PATH_MAX + NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s%s%s%s", p->name, *rel ? "/" : "", rel, dir ? "/" : "");
	archive_entry_clear(p->entry);
	archive_entry_set_pathname(p->entry, path);
	archive_entry_set_filetype(p->entry, dir ? AE_IFDIR : AE_IFREG);
	/* a private trace's entries say so: ltt unpack makes them 0700/0600 again */
	archive_entry_set_perm(p->entry, p->private_ ? (dir ? 0700 : 0600) : (dir ? 0755 : 0644));
	archive_entry_set_size(p->entry, dir ? 0 : (la_int64_t)size);
	/* Whole seconds and no owner: the archive stays plain ustar and tells nothing of the packer. */
	archive_entry_set_mtime(p->entry, mtime, 0);
	archive_entry_set_uid(p->entry, 0);
	archive_entry_set_gid(p->entry, 0);
	if (archive_write_header(p->a, p->entry) < ARCHIVE_WARN)
		return archive_failed(p, path);
	return 0;
}

static int progress(struct pack *p)
{
	if (ltt_archive_stop_) {
		fail(p->err, p->errlen, "%s: interrupted", p->out);
		return -EINTR;
	}
	if (p->opt && p->opt->progress && p->done >= p->next_progress) {
		p->opt->progress(p->done, p->total, p->opt->progress_arg);
		p->next_progress = p->done + PROGRESS_STEP;
	}
	return 0;
}

/* Copies one file into the archive, hashing it on the way. */
static int write_file(struct pack *p, const struct ltt_layout_entry *le, struct ltt_manifest_file *mf)
{
	char path[PATH_MAX];
	EVP_MD_CTX *c = NULL;
	struct stat st;
	uint64_t left = le->size;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", p->dir, le->rel);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		fail(p->err, p->errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != le->size)
		goto changed;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	ret = write_header(p, le->rel, 0, le->size, le->mtime.tv_sec);
	if (ret)
		goto out;
	if (!(c = ltt_sha256_new())) {
		ret = -ENOMEM;
		fail(p->err, p->errlen, "%s: out of memory", path);
		goto out;
	}
	while (left) {
		ssize_t r = read(fd, p->buf, left < PACK_BUF ? (size_t)left : PACK_BUF);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			fail(p->err, p->errlen, "%s: offset %" PRIu64 ": %s", path, le->size - left, strerror(errno));
			goto out;
		}
		if (r == 0)
			goto changed;
		if (!EVP_DigestUpdate(c, p->buf, (size_t)r)) {
			ret = -EIO;
			fail(p->err, p->errlen, "%s: SHA-256 failed (libcrypto)", path);
			goto out;
		}
		if (archive_write_data(p->a, p->buf, (size_t)r) != r) {
			ret = archive_failed(p, path);
			goto out;
		}
		left -= (uint64_t)r;
		p->done += (uint64_t)r;
		ret = progress(p);
		if (ret)
			goto out;
	}
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size != le->size)
		goto changed;
	ret = ltt_sha256_end(c, mf->sha256);
	c = NULL;
	if (ret) {
		fail(p->err, p->errlen, "%s: SHA-256 failed (libcrypto)", path);
		goto out;
	}
	mf->size = le->size;
	goto out;
changed:
	ret = -EAGAIN;
	fail(p->err, p->errlen, "%s: changed while packing (is the trace still being recorded?)", path);
out:
	EVP_MD_CTX_free(c);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The name the trace gets in the archive: the directory's own name. */
static int trace_name(struct pack *p)
{
	const char *base = strrchr(p->dir, '/');
	char *real = NULL;

	base = base ? base + 1 : p->dir;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		real = realpath(p->dir, NULL);
		base = real ? strrchr(real, '/') + 1 : "";
	}
	if (!*base || strlen(base) > NAME_MAX) {
		free(real);
		fail(p->err, p->errlen, "%s: cannot name the trace after this directory", p->dir);
		return -EINVAL;
	}
	snprintf(p->name, sizeof(p->name), "%s", base);
	free(real);
	return 0;
}

/* A trace directory has info/system.xml; a flight recorder's directory holds its snapshots instead. */
static int check_is_trace(struct pack *p)
{
	char path[PATH_MAX];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int snapshots = 0;

	snprintf(path, sizeof(path), "%s/info/system.xml", p->dir);
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	d = opendir(p->dir);
	if (!d) {
		int e = errno;

		fail(p->err, p->errlen, "%s: %s", p->dir, strerror(e));
		return -e;
	}
	while ((de = readdir(d)))
		snapshots += !strncmp(de->d_name, "snapshot-", 9);
	closedir(d);
	if (snapshots)
		fail(p->err, p->errlen, "%s: not a trace directory but a flight recorder's, with %d snapshot%s: "
		     "pack each snapshot (%s/snapshot-NNNN)", p->dir, snapshots, snapshots > 1 ? "s" : "", p->dir);
	else
		fail(p->err, p->errlen, "%s: not a trace directory (no info/system.xml)", p->dir);
	return -EINVAL;
}

static int write_all(struct pack *p, const struct ltt_layout *l, struct ltt_manifest *m)
{
	time_t newest = 0;
	char *xml = NULL;
	size_t len = 0, k = 0;
	int ret = 0;

	for (size_t i = 0; i < l->n && !ret; i++) {
		const struct ltt_layout_entry *le = &l->e[i];

		if (le->mtime.tv_sec > newest)
			newest = le->mtime.tv_sec;
		if (le->kind == LTT_LAYOUT_DIR)
			ret = write_header(p, le->rel, 1, 0, le->mtime.tv_sec);
		else
			ret = write_file(p, le, &m->files[k++]);
	}
	if (ret)
		return ret;
	ret = ltt_manifest_format(m, &xml, &len);
	if (ret) {
		fail(p->err, p->errlen, "%s: %s", p->out, strerror(-ret));
		return ret;
	}
	ret = write_header(p, LTT_MANIFEST_PATH, 0, len, newest);
	if (!ret && archive_write_data(p->a, xml, len) != (la_ssize_t)len)
		ret = archive_failed(p, LTT_MANIFEST_PATH);
	free(xml);
	if (!ret && archive_write_close(p->a) != ARCHIVE_OK)
		ret = archive_failed(p, "writing");
	if (!ret && (ret = ltt_gzwrite_close(p->gz)))
		fail(p->err, p->errlen, "%s: cannot write the archive: %s", p->out, strerror(-ret));
	if (!ret && p->opt && p->opt->progress)
		p->opt->progress(p->done, p->total, p->opt->progress_arg);
	return ret;
}

static la_ssize_t tar_out(struct archive *a, void *client, const void *buf, size_t len)
{
	struct pack *p = client;
	int ret = ltt_gzwrite_write(p->gz, buf, len);

	if (ret) {
		archive_set_error(a, -ret, "%s", strerror(-ret));
		return -1;
	}
	return (la_ssize_t)len;
}

/* Opens the archive writer on fd: pax (restricted) tar into our gzip writer at the chosen level. */
static int open_writer(struct pack *p, int fd)
{
	int lv = p->opt && p->opt->level ? p->opt->level : LTT_PACK_DEFAULT_LEVEL;
	int ret;

	if (lv < 1 || lv > 9) {
		fail(p->err, p->errlen, "%s: gzip level %d is not in 1..9", p->out, lv);
		return -EINVAL;
	}
	ret = ltt_gzwrite_open(&p->gz, fd, lv, p->opt ? p->opt->threads : 0);
	if (ret) {
		fail(p->err, p->errlen, "%s: %s", p->out, strerror(-ret));
		return ret;
	}
	p->a = archive_write_new();
	p->entry = archive_entry_new();
	if (!p->a || !p->entry) {
		fail(p->err, p->errlen, "%s: out of memory", p->out);
		return -ENOMEM;
	}
	if (archive_write_set_format_pax_restricted(p->a) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(p->a, 64 << 10) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(p->a, 1) != ARCHIVE_OK)
		return archive_failed(p, "setting up");
	if (archive_write_open(p->a, p, NULL, tar_out, NULL) != ARCHIVE_OK)
		return archive_failed(p, "opening");
	return 0;
}

static int fill_manifest(struct pack *p, const struct ltt_layout *l, struct ltt_manifest *m,
			 char *host, size_t hostlen)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->e[i].kind != LTT_LAYOUT_DIR;
	m->files = calloc(n + 1, sizeof(*m->files));
	if (!m->files) {
		fail(p->err, p->errlen, "%s: out of memory", p->dir);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->n; i++) {
		if (l->e[i].kind == LTT_LAYOUT_DIR)
			continue;
		m->files[m->n].path = l->e[i].rel;	/* borrowed from the layout */
		m->files[m->n].events = m->files[m->n].lost = m->files[m->n].overwritten = LTT_MANIFEST_NO_COUNT;
		m->n++;
	}
	if (gethostname(host, hostlen) < 0)
		snprintf(host, hostlen, "unknown");
	host[hostlen - 1] = '\0';
	m->host = host;
	m->ltt_version = (char *)LTT_VERSION;
	m->reader_problems = LTT_MANIFEST_NO_COUNT;
	return 0;
}

int ltt_archive_pack(const char *trace_dir, const char *out_path, const struct ltt_pack_options *opt,
		     char *err, size_t errlen)
{
	struct pack p = { .out = out_path, .opt = opt, .err = err, .errlen = errlen };
	struct ltt_layout l = { 0 };
	struct ltt_manifest m = { 0 };
	char *dir = strdup(trace_dir), *tmp = NULL, host[256];
	int fd = -1, ret;
	mode_t mask;

	if (!dir) {
		fail(err, errlen, "%s: out of memory", trace_dir);
		return -ENOMEM;
	}
	for (size_t n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	p.dir = dir;
	ret = trace_name(&p);
	if (!ret)
		ret = check_is_trace(&p);
	if (!ret)
		ret = ltt_layout_list(dir, LTT_LAYOUT_STRICT, &l, err, errlen);
	if (ret)
		goto out;
	ret = fill_manifest(&p, &l, &m, host, sizeof(host));
	if (ret)
		goto out;
	ltt_archive_count_events(dir, &m);
	p.total = l.file_bytes;
	p.buf = malloc(PACK_BUF);
	if (!p.buf || asprintf(&tmp, "%s.tmp-XXXXXX", out_path) < 0) {
		tmp = NULL;
		ret = -ENOMEM;
		fail(err, errlen, "%s: out of memory", out_path);
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", out_path, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	p.private_ = ltt_path_private(dir);
	mask = umask(0);
	umask(mask);
	if (!p.private_)	/* mkostemp made it 0600; an archive is for sharing, unless its trace is private */
		fchmod(fd, 0666 & ~mask);
	ret = open_writer(&p, fd);
	if (!ret)
		ret = write_all(&p, &l, &m);
	if (!ret && close(fd) < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", out_path, strerror(errno));
	}
	fd = -1;
	if (!ret && rename(tmp, out_path) < 0) {
		ret = -errno;
		fail(err, errlen, "%s: %s", out_path, strerror(errno));
	}
out:
	if (p.a)
		archive_write_free(p.a);
	if (p.entry)
		archive_entry_free(p.entry);
	ltt_gzwrite_free(p.gz);
	if (fd >= 0)
		close(fd);
	if (tmp) {
		if (ret)
			unlink(tmp);
		free(tmp);
	}
	free(m.files);
	free(p.buf);
	ltt_layout_free(&l);
	free(dir);
	return ret;
}
