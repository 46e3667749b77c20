/* SPDX-License-Identifier: MIT */
/* recorder/rotate.c: the chunks of a rotating trace (LTT_ROTATE_SIZE / LTT_ROTATE_SECONDS,
 * doc/recorder.md "Rotation", doc/format.md section 1): TRACE/chunk-NNNN.part/ made complete (its
 * directories and info/system.xml), renamed chunk-NNNN when sealed, and the oldest sealed chunks
 * removed, each after a line `chunk-NNNN removed BYTES` in TRACE/chunks-removed, while the total passes
 * LTT_MAX_SIZE. The consumer thread (recorder/consumer.c) decides when and cuts the rings. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder.h"

#define KEEP_MAX 4096	/* sealed chunks remembered for the bound (older ones are removed first) */

static struct {
	unsigned first, count;		/* sealed chunks first .. first + count - 1 still on disk */
	uint64_t bytes[KEEP_MAX];	/* their sizes, indexed by number % KEEP_MAX */
	uint64_t total;
	int warned;
} K;

/* part: 0 chunk-NNNN, 1 chunk-NNNN.part, 2 .chunk-NNNN.new (being made: readers do not look at it) */
static int chunk_path(const struct ltt_trace_state *t, unsigned n, int part, char *out, size_t len)
{
	size_t w = part == 2 ? (size_t)snprintf(out, len, "%s/.chunk-%04u.new", t->path, n)
			     : (size_t)snprintf(out, len, "%s/chunk-%04u%s", t->path, n, part ? ".part" : "");

	return w < len ? 0 : -ENAMETOOLONG;
}

/* Copies every file of from/eventdefs/ into to/eventdefs/, every error checked: a chunk whose facility
 * files could not be written (a full disk) is not begun at all (the facility_loads written at the cut
 * then find the same files there and write nothing). */
static int copy_eventdefs(const char *from, const char *to)
{
	char p[PATH_MAX], q[PATH_MAX], buf[16384];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s/eventdefs", from) >= sizeof(p))
		return -ENAMETOOLONG;
	d = opendir(p);
	if (!d)
		return -errno;
	while (!rc && (e = readdir(d))) {
		int in, out;
		ssize_t r;

		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(p, sizeof(p), "%s/eventdefs/%s", from, e->d_name) >= sizeof(p) ||
		    (size_t)snprintf(q, sizeof(q), "%s/eventdefs/%s", to, e->d_name) >= sizeof(q)) {
			rc = -ENAMETOOLONG;
			break;
		}
		in = open(p, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			continue;	/* gone: not ours to worry about */
		out = open(q, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, LTT_TRACE_FILE_MODE);
		if (out < 0)
			rc = -errno;
		while (!rc && (r = read(in, buf, sizeof(buf))) != 0) {
			if (r < 0 || write(out, buf, (size_t)r) != r)
				rc = r < 0 ? -errno : -ENOSPC;
		}
		if (out >= 0 && close(out) && !rc)
			rc = -errno;
		close(in);
	}
	closedir(d);
	return rc;
}

int ltt_chunk_make(struct ltt_trace_state *t, unsigned n, char *dir, size_t len)
{
	static const char *const subs[] = { "eventdefs", "info", "control", "cpu" };
	char p[PATH_MAX];
	int rc;

	if (n == 1)
		memset(&K, 0, sizeof(K));
	rc = chunk_path(t, n, n == 1 ? 1 : 2, dir, len);
	if (rc)
		return rc;
	if (mkdir(dir, LTT_TRACE_DIR_MODE))
		return -errno;
	for (unsigned i = 0; i < 4; i++) {
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, subs[i]) >= sizeof(p)) {
			rc = -ENAMETOOLONG;
			break;
		}
		if (mkdir(p, LTT_TRACE_DIR_MODE)) {
			rc = -errno;
			break;
		}
	}
	if (!rc && n > 1)	/* chunk 1: by ltt_start() once the clock runs, as for any trace */
		rc = ltt_tracedir_system_xml_in(t, dir, n);
	if (!rc && n > 1) {
		/* under the registry lock: a facility registered now writes its file whole first */
		ltt_registry_lock();
		rc = copy_eventdefs(t->dir, dir);
		ltt_registry_unlock();
	}
	if (rc)
		ltt_tracedir_remove(dir);
	return rc;
}

int ltt_chunk_publish(struct ltt_trace_state *t, unsigned n, char *dir, size_t len)
{
	char to[PATH_MAX];
	int rc = chunk_path(t, n, 1, to, sizeof(to));

	if (rc)
		return rc;
	if (rename(dir, to))
		return -errno;
	snprintf(dir, len, "%s", to);
	return 0;
}

static uint64_t walk_bytes;

static int add_bytes(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)p;
	(void)flag;
	(void)ftw;
	walk_bytes += (uint64_t)sb->st_blocks * 512u;
	return 0;
}

uint64_t ltt_chunk_du(const char *dir)
{
	walk_bytes = 0;
	nftw(dir, add_bytes, 8, FTW_PHYS);
	return walk_bytes;
}

int ltt_chunk_seal(struct ltt_trace_state *t, unsigned n)
{
	char from[PATH_MAX], to[PATH_MAX];
	uint64_t b;

	if (chunk_path(t, n, 1, from, sizeof(from)) || chunk_path(t, n, 0, to, sizeof(to)))
		return -ENAMETOOLONG;
	if (rename(from, to))
		return -errno;
	b = ltt_chunk_du(to);
	if (!K.count)
		K.first = n;
	if (K.count == KEEP_MAX)	/* cannot happen with a bound; without one, sizes are not needed */
		return 0;
	K.bytes[n % KEEP_MAX] = b;
	K.total += b;
	K.count++;
	return 0;
}

/* Appends `chunk-NNNN removed BYTES` to TRACE/chunks-removed. */
static int log_removal(const struct ltt_trace_state *t, unsigned n, uint64_t b)
{
	char p[PATH_MAX], line[64];
	int fd, len, rc = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s/chunks-removed", t->path) >= sizeof(p))
		return -ENAMETOOLONG;
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, LTT_TRACE_FILE_MODE);
	if (fd < 0)
		return -errno;
	len = snprintf(line, sizeof(line), "chunk-%04u removed %llu\n", n, (unsigned long long)b);
	if (write(fd, line, (size_t)len) != len)
		rc = -ENOSPC;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

static void remove_oldest(const struct ltt_trace_state *t)
{
	char dir[PATH_MAX];
	unsigned n = K.first;
	uint64_t b = K.bytes[n % KEEP_MAX];
	int logged;

	/* The line first, so a reader never finds a chunk missing without it; on a full disk the
	 * removal frees the space for it */
	logged = log_removal(t, n, b) == 0;
	if (!chunk_path(t, n, 0, dir, sizeof(dir)))
		ltt_tracedir_remove(dir);
	if (!logged && log_removal(t, n, b) && !K.warned++)
		ltt_warn("%s/chunks-removed: cannot record the removal of chunk-%04u", t->path, n);
	K.total -= b;
	K.first++;
	K.count--;
}

void ltt_chunks_bound(struct ltt_trace_state *t, uint64_t coming, unsigned keep)
{
	if (!t->max_size)
		return;
	while (K.count > keep && K.total + coming > t->max_size)
		remove_oldest(t);
}
