/* SPDX-License-Identifier: MIT */
/* The extraction engine of unpacking (used by archive.c's entry points): reading the tar.gz entry by
 * entry, checking each path and type against the trace layout, writing files beneath directory
 * descriptors we made, and checking the result against its manifest. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "common/grow.h"

#include "reader/archive.h"
#include "archive_gunzip.h"
#include "archive_int.h"
#include "manifest.h"

#define MAX_ENTRIES (1u << 18)
#define HOLE_CHUNK 4096u	/* granularity of the zero check when writing */

#define fail ltt_archive_err_

/* ---- reading the archive ------------------------------------------------------------------------ */

static const char *const subdirs[] = { "info", "eventdefs", "control", "cpu", "kernel" };


/* Copies s for a message, replacing bytes that are not printable ASCII, at most len - 1 bytes. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; s && *s && i + 1 < len; s++)
		buf[i++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
	buf[i] = '\0';
	return buf;
}

void ltt_archive_close_(struct extract *x)
{
	if (x->a)
		archive_read_free(x->a);
	ltt_gunzip_free(x->gz);
	x->a = NULL;
	x->gz = NULL;
}

int ltt_archive_failure_(struct extract *x, const char *what)
{
	int e = archive_errno(x->a);
	const char *msg = archive_error_string(x->a);

	if (ltt_gunzip_failed(x->gz))
		what = "corrupt archive";	/* the gzip layer, whatever tar was doing */
	fail(x->err, x->errlen, "%s: offset %" PRIu64 ": %s: %s", x->path, ltt_gunzip_offset(x->gz), what,
	     msg ? msg : "unknown error");
	return e == ENOMEM ? -ENOMEM : -EBADMSG;
}

/* Opens x->path for reading (x->a, x->gz); on failure the message is set and nothing is left open. */
int ltt_archive_open_(struct extract *x)
{
	struct stat st;
	int ret;

	if (stat(x->path, &st) < 0) {
		ret = -errno;
		fail(x->err, x->errlen, "%s: %s", x->path, strerror(errno));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		fail(x->err, x->errlen, "%s: not a regular file", x->path);
		return -EINVAL;
	}
	if (!ltt_archive_is_packed(x->path)) {
		fail(x->err, x->errlen, "%s: not a gzip file (a packed trace is a .tar.gz)", x->path);
		return -EBADMSG;
	}
	x->a = archive_read_new();
	if (!x->a) {
		fail(x->err, x->errlen, "%s: out of memory", x->path);
		return -ENOMEM;
	}
	archive_read_support_format_tar(x->a);	/* no filter: ltt_gunzip decodes the gzip layer */
	ret = ltt_gunzip_open(x->a, x->path, &x->gz);
	if (ret == -EBADMSG)
		ret = ltt_archive_failure_(x, "not a tar archive");
	else if (ret)
		fail(x->err, x->errlen, "%s: %s", x->path, strerror(-ret));
	if (ret)
		ltt_archive_close_(x);
	return ret;
}

/* Checks an entry's path and splits it: *name the top-level directory (malloc'd when x->name is
 * NULL), *rel the rest ("" for the directory itself). 0 or -EINVAL with the message set. */
int ltt_archive_check_path_(struct extract *x, const char *p, char *rel, size_t rellen, char **name_out)
{
	char sh[256], copy[4096], *comp, *save, *top = NULL;
	size_t n = 0, len;

	*name_out = NULL;
	if (!p || !*p) {
		fail(x->err, x->errlen, "%s: an entry has no name", x->path);
		return -EINVAL;
	}
	shown(p, sh, sizeof(sh));
	len = strlen(p);
	if (p[0] == '/') {
		fail(x->err, x->errlen, "%s: entry '%s': absolute path", x->path, sh);
		return -EINVAL;
	}
	if (len >= sizeof(copy)) {
		fail(x->err, x->errlen, "%s: entry '%s': path too long", x->path, sh);
		return -EINVAL;
	}
	memcpy(copy, p, len + 1);
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save))
		if (!strcmp(comp, "..")) {
			fail(x->err, x->errlen, "%s: entry '%s': '..' in its path", x->path, sh);
			return -EINVAL;
		}
	/* Tolerated: one leading "./", one trailing "/". Anything else odd is outside the layout. */
	if (!strncmp(p, "./", 2))
		p += 2;
	memcpy(copy, p, strlen(p) + 1);
	len = strlen(copy);
	if (len && copy[len - 1] == '/')
		copy[--len] = '\0';
	for (const char *c = copy; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			goto outside;
	if (!len || strstr(copy, "//") || !strcmp(copy, ".") || !strncmp(copy, "./", 2) ||
	    strstr(copy, "/./") || (len >= 2 && !strcmp(copy + len - 2, "/.")))
		goto outside;
	comp = strchr(copy, '/');
	n = comp ? (size_t)(comp - copy) : len;
	if (n > 255)
		goto outside;
	if (x->name ? strlen(x->name) != n || memcmp(x->name, copy, n) : 0) {
		fail(x->err, x->errlen, "%s: entry '%s': outside the trace directory '%s'", x->path, sh,
		     shown(x->name, copy, sizeof(copy)));
		return -EINVAL;
	}
	if (!x->name && !(top = strndup(copy, n))) {
		fail(x->err, x->errlen, "%s: out of memory", x->path);
		return -ENOMEM;
	}
	snprintf(rel, rellen, "%s", comp ? comp + 1 : "");
	*name_out = top;
	return 0;
outside:
	fail(x->err, x->errlen, "%s: entry '%s': not part of the trace layout (doc/format.md section 1)",
	     x->path, sh);
	return -EINVAL;
}

/* Refuses entries that are not plain directories or regular files. */
static int check_type(struct extract *x, struct archive_entry *e, const char *sh)
{
	const char *what = NULL;

	if (archive_entry_hardlink(e))
		what = "hard link";
	else if (archive_entry_symlink(e) || archive_entry_filetype(e) == AE_IFLNK)
		what = "symbolic link";
	else {
		switch (archive_entry_filetype(e)) {
		case AE_IFREG: case AE_IFDIR: return 0;
		case AE_IFCHR: what = "character device"; break;
		case AE_IFBLK: what = "block device"; break;
		case AE_IFIFO: what = "fifo"; break;
		case AE_IFSOCK: what = "socket"; break;
		default: what = "entry of unknown type"; break;
		}
	}
	fail(x->err, x->errlen, "%s: entry '%s': %s (a trace holds only directories and regular files)",
	     x->path, sh, what);
	return -EINVAL;
}

static int subdir_index(const char *rel, size_t len)
{
	for (int i = 0; i < 5; i++)
		if (strlen(subdirs[i]) == len && !memcmp(subdirs[i], rel, len))
			return i;
	return -1;
}

/* The descriptor of subdirectory i of the trace, made on first use. */
static int subdir_fd(struct extract *x, int i)
{
	if (x->subfd[i] >= 0)
		return x->subfd[i];
	if (mkdirat(x->rootfd, subdirs[i], x->private_ ? 0700 : 0755) < 0 && errno != EEXIST)
		return -errno;
	x->subfd[i] = openat(x->rootfd, subdirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return x->subfd[i] < 0 ? -errno : x->subfd[i];
}

static int is_zero(const unsigned char *p, size_t n)
{
	return n == 0 || (p[0] == 0 && !memcmp(p, p + 1, n - 1));
}

/* Writes len bytes at off into a file that is all zeros past what was written so far (a new file,
 * written at increasing offsets and truncated to its size at the end): all-zero chunks are skipped,
 * so zero-filled block tails become holes again. */
static int write_sparse(int fd, const unsigned char *p, size_t len, uint64_t off)
{
	while (len) {
		size_t n = HOLE_CHUNK - (size_t)(off % HOLE_CHUNK);
		ssize_t w;

		if (n > len)
			n = len;
		if (is_zero(p, n)) {
			p += n;
			off += n;
			len -= n;
			continue;
		}
		w = pwrite(fd, p, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		off += (uint64_t)w;
		len -= (size_t)w;
	}
	return 0;
}

static int hash_zeros(EVP_MD_CTX *c, uint64_t n)
{
	static const unsigned char zeros[65536];

	for (; n; ) {
		size_t k = n < sizeof(zeros) ? (size_t)n : sizeof(zeros);

		if (!EVP_DigestUpdate(c, zeros, k))
			return -EIO;
		n -= k;
	}
	return 0;
}

static int extract_file(struct extract *x, struct archive_entry *e, const char *rel, const char *sh)
{
	const char *slash = strchr(rel, '/');
	int64_t size = archive_entry_size(e);
	uint64_t pos = 0;
	EVP_MD_CTX *c = NULL;
	int dfd, fd, ret = 0;

	if (!archive_entry_size_is_set(e) || size < 0) {
		fail(x->err, x->errlen, "%s: entry '%s': no size", x->path, sh);
		return -EBADMSG;
	}
	if ((uint64_t)size > x->max_bytes - x->total) {
		fail(x->err, x->errlen, "%s: expands past the limit of %" PRIu64 " bytes at entry '%s' "
		     "(raise it with %s)", x->path, x->max_bytes, sh,
		     x->parentfd >= 0 ? "LTT_UNPACK_MAX" : "--max-size");
		return -EFBIG;
	}
	x->total += (uint64_t)size;
	dfd = subdir_fd(x, subdir_index(rel, (size_t)(slash - rel)));
	if (dfd < 0) {
		fail(x->err, x->errlen, "%s: entry '%s': %s", x->path, sh, strerror(-dfd));
		return dfd;
	}
	fd = openat(dfd, slash + 1, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, x->private_ ? 0600 : 0644);
	if (fd < 0) {
		ret = -errno;
		fail(x->err, x->errlen, "%s: entry '%s': %s", x->path, sh,
		     errno == EEXIST ? "duplicate entry" : strerror(errno));
		return ret;
	}
	if (x->hash && !(c = ltt_sha256_new())) {
		ret = -ENOMEM;
		fail(x->err, x->errlen, "%s: out of memory", x->path);
		goto out;
	}
	for (;;) {
		const void *buf;
		size_t len;
		la_int64_t off;
		int r = archive_read_data_block(x->a, &buf, &len, &off);

		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			ret = ltt_archive_failure_(x, "corrupt archive");
			goto out;
		}
		if (ltt_archive_stop_) {
			fail(x->err, x->errlen, "%s: interrupted", x->path);
			ret = -EINTR;
			goto out;
		}
		if (off < 0 || (uint64_t)off < pos || (uint64_t)off > (uint64_t)size ||
		    len > (uint64_t)size - (uint64_t)off) {
			fail(x->err, x->errlen, "%s: entry '%s': data past its declared size", x->path, sh);
			ret = -EBADMSG;
			goto out;
		}
		if (c && (hash_zeros(c, (uint64_t)off - pos) || !EVP_DigestUpdate(c, buf, len))) {
			ret = -EIO;
			fail(x->err, x->errlen, "%s: entry '%s': SHA-256 failed (libcrypto)", x->path, sh);
			goto out;
		}
		ret = write_sparse(fd, buf, len, (uint64_t)off);
		if (ret) {
			fail(x->err, x->errlen, "%s: entry '%s': %s", x->path, sh, strerror(-ret));
			goto out;
		}
		pos = (uint64_t)off + len;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		ret = -errno;
		fail(x->err, x->errlen, "%s: entry '%s': %s", x->path, sh, strerror(errno));
		goto out;
	}
	if (archive_entry_mtime_is_set(e)) {
		struct timespec ts[2] = {
			{ archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
			{ archive_entry_mtime(e), archive_entry_mtime_nsec(e) },
		};

		futimens(fd, ts);	/* best effort: times are not part of the trace */
	}
	if (c && strcmp(rel, LTT_MANIFEST_PATH)) {
		struct ltt_manifest_file *f;
		char hex[LTT_SHA256_HEX_LEN + 1];

		ret = hash_zeros(c, (uint64_t)size - pos);
		if (!ret)
			ret = ltt_sha256_end(c, hex);
		c = NULL;
		if (ret) {
			fail(x->err, x->errlen, "%s: entry '%s': SHA-256 failed (libcrypto)", x->path, sh);
			goto out;
		}
		if (LTT_GROW(x->found, x->nfound + 1, x->cap)) {
			ret = -ENOMEM;
			fail(x->err, x->errlen, "%s: out of memory", x->path);
			goto out;
		}
		f = &x->found[x->nfound];
		memset(f, 0, sizeof(*f));
		if (!(f->path = strdup(rel))) {
			ret = -ENOMEM;
			fail(x->err, x->errlen, "%s: out of memory", x->path);
			goto out;
		}
		f->size = (uint64_t)size;
		memcpy(f->sha256, hex, sizeof(hex));
		x->nfound++;
	}
out:
	EVP_MD_CTX_free(c);
	close(fd);
	return ret;
}

/* Makes the trace directory under x->parentfd once the archive's name is known (private mode). */
static int make_root(struct extract *x)
{
	if (x->rootfd >= 0)
		return 0;
	if (mkdirat(x->parentfd, x->name, x->private_ ? 0700 : 0755) < 0 ||
	    (x->rootfd = openat(x->parentfd, x->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		int e = errno;

		fail(x->err, x->errlen, "%s: cannot create the trace directory: %s", x->path, strerror(e));
		return -e;
	}
	return 0;
}

static int extract_entry(struct extract *x, struct archive_entry *e)
{
	char rel[4096], sh[256];
	char *top;
	enum ltt_layout_kind kind;
	int dir, ret;

	if (!(archive_entry_perm(e) & 077))
		x->private_ = 1;	/* from here on; ltt_archive_unpack() fixes what came before */
	ret = ltt_archive_check_path_(x, archive_entry_pathname(e), rel, sizeof(rel), &top);
	if (ret)
		return ret;
	if (top)
		x->name = top;
	shown(archive_entry_pathname(e), sh, sizeof(sh));
	ret = check_type(x, e, sh);
	if (ret)
		return ret;
	dir = archive_entry_filetype(e) == AE_IFDIR;
	kind = ltt_layout_kind(rel);
	if (kind == LTT_LAYOUT_OUTSIDE) {
		fail(x->err, x->errlen, "%s: entry '%s': not part of the trace layout (doc/format.md section 1)",
		     x->path, sh);
		return -EINVAL;
	}
	if (dir != (kind == LTT_LAYOUT_DIR)) {
		fail(x->err, x->errlen, "%s: entry '%s': a %s where the trace layout has a %s", x->path, sh,
		     dir ? "directory" : "file", dir ? "file" : "directory");
		return -EINVAL;
	}
	if (++x->entries > MAX_ENTRIES) {
		fail(x->err, x->errlen, "%s: more than %u entries", x->path, MAX_ENTRIES);
		return -EFBIG;
	}
	ret = make_root(x);
	if (ret)
		return ret;
	if (dir) {
		if (*rel && (ret = subdir_fd(x, subdir_index(rel, strlen(rel)))) < 0) {
			fail(x->err, x->errlen, "%s: entry '%s': %s", x->path, sh, strerror(-ret));
			return ret;
		}
		return 0;
	}
	if (!strcmp(rel, LTT_MANIFEST_PATH))
		x->has_manifest = 1;
	if (!strcmp(rel, "info/system.xml"))
		x->has_system = 1;
	return extract_file(x, e, rel, sh);
}

/* Reads the whole archive into the trace directory (x->rootfd, or made under x->parentfd). */
int ltt_archive_extract_all_(struct extract *x)
{
	struct archive_entry *e;
	int r, ret = 0;

	for (int i = 0; i < 5; i++)
		x->subfd[i] = -1;
	ret = ltt_archive_open_(x);
	if (ret)
		return ret;
	while ((r = archive_read_next_header(x->a, &e)) != ARCHIVE_EOF) {
		if (r < ARCHIVE_WARN) {
			ret = ltt_archive_failure_(x, x->entries ? "corrupt archive" : "not a tar archive");
			break;
		}
		ret = extract_entry(x, e);
		if (ret)
			break;
	}
	if (!ret && ltt_gunzip_finish(x->a, x->gz))
		ret = ltt_archive_failure_(x, "corrupt archive");
	if (!ret && !x->entries) {
		fail(x->err, x->errlen, "%s: empty archive", x->path);
		ret = -EBADMSG;
	} else if (!ret && !x->has_system) {
		fail(x->err, x->errlen, "%s: no %s/info/system.xml: not a packed trace", x->path, x->name);
		ret = -EBADMSG;
	}
	for (int i = 0; i < 5; i++)
		if (x->subfd[i] >= 0)
			close(x->subfd[i]);
	ltt_archive_close_(x);
	return ret;
}

void ltt_archive_extract_free_(struct extract *x)
{
	for (size_t i = 0; i < x->nfound; i++)
		free(x->found[i].path);
	free(x->found);
	free(x->name);
	if (x->rootfd >= 0)
		close(x->rootfd);
}

/* Checks the extracted trace (x->rootfd) against its manifest and the digests taken while writing. */
int ltt_archive_check_manifest_(struct extract *x)
{
	struct ltt_manifest m;
	char label[4096], *xml = NULL;
	struct stat st;
	size_t len = 0;
	int fd, ret;

	snprintf(label, sizeof(label), "%s: %s/%s", x->path, x->name, LTT_MANIFEST_PATH);
	fd = openat(x->rootfd, LTT_MANIFEST_PATH, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto io;
	}
	if ((uint64_t)st.st_size > LTT_MANIFEST_MAX_BYTES) {
		close(fd);
		fail(x->err, x->errlen, "%s: larger than %u bytes", label, LTT_MANIFEST_MAX_BYTES);
		return -EBADMSG;
	}
	xml = malloc((size_t)st.st_size + 1);
	ret = xml ? 0 : -ENOMEM;
	while (!ret && len < (size_t)st.st_size) {
		ssize_t r = read(fd, xml + len, (size_t)st.st_size - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			ret = r < 0 ? -errno : -EIO;
		else
			len += (size_t)r;
	}
	if (ret)
		goto io;
	close(fd);
	ret = ltt_manifest_parse(xml, len, label, &m, x->err, x->errlen);
	free(xml);
	if (ret)
		return ret;
	snprintf(label, sizeof(label), "%s: %s", x->path, x->name);
	ret = ltt_manifest_compare(&m, x->found, x->nfound, label, x->err, x->errlen);
	ltt_manifest_free(&m);
	return ret;
io:
	if (fd >= 0)
		close(fd);
	free(xml);
	fail(x->err, x->errlen, "%s: %s", label, strerror(-ret));
	return ret;
}
