/* SPDX-License-Identifier: MIT */
/* recorder/shm.c: the rings of a flight trace kept in a file under LTT_SHM_DIR (layout in
 * recorder/shm_layout.h), so that `ltt recover` can rebuild a trace after the process was killed. The
 * region is mapped MAP_SHARED from the file; what a trace needs besides the rings (system.xml, the
 * facilities' XML, the trace path) is appended after it as records. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proc.h"
#include "flight.h"
#include "recorder/shm_layout.h"

static pthread_mutex_t shm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ltt_region *shm_rg;
static int shm_fd = -1;

static void comm(char *buf, size_t n)
{
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t r = fd >= 0 ? read(fd, buf, n - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (r <= 0) {
		snprintf(buf, n, "prog");
		return;
	}
	buf[r] = 0;
	buf[strcspn(buf, "\n")] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '/' || *p == ' ' || *p == '.')
			*p = '_';
}

int ltt_shm_create(const char *dir, size_t size, char *path, size_t pathlen)
{
	char prog[32];
	int fd = -1, err;

	comm(prog, sizeof(prog));
	for (unsigned i = 1; i < 100 && fd < 0; i++) {
		size_t n = i == 1 ? (size_t)snprintf(path, pathlen, "%s/" LTT_SHM_PREFIX "%s-%d" LTT_SHM_SUFFIX, dir,
						     prog, (int)getpid())
				  : (size_t)snprintf(path, pathlen, "%s/" LTT_SHM_PREFIX "%s-%d-%u" LTT_SHM_SUFFIX,
						     dir, prog, (int)getpid(), i);

		if (n >= pathlen)
			return -ENAMETOOLONG;
		/* O_EXCL: a file of a dead process with the same pid stays for `ltt recover` */
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	/* Every page is allocated now: a full file system must fail the start, not raise SIGBUS in
	 * the traced program when a writer first touches a page of the mapping. */
	err = posix_fallocate(fd, 0, (off_t)size);
	if (err) {
		close(fd);
		unlink(path);
		return -err;
	}
	return fd;
}

/* Appends one record; the caller holds shm_lock. */
static int append(uint32_t type, const char *a, size_t alen, const char *b, size_t blen)
{
	struct ltt_shm_meta *m = ltt_shm_meta_of(shm_rg);
	struct ltt_shm_rec h = { type, (uint32_t)(alen + blen) };
	uint64_t off = m->meta_off + m->meta_len, span = ltt_shm_rec_span(h.len);
	static const char zeros[8];
	struct iovec_s {
		const char *p;
		size_t n;
	} parts[4] = { { (const char *)&h, sizeof(h) }, { a, alen }, { b, blen },
		       { zeros, span - sizeof(h) - h.len } };

	if (alen + blen > UINT32_MAX)
		return -EFBIG;
	for (unsigned i = 0; i < 4; i++) {
		const char *p = parts[i].p;
		size_t n = parts[i].n;

		while (n) {
			ssize_t w = pwrite(shm_fd, p, n, (off_t)off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return w < 0 ? -errno : -ENOSPC;
			p += w;
			n -= (size_t)w;
			off += (uint64_t)w;
		}
	}
	/* Release: the record is in the file before the length covers it (a reader after death sees
	 * the file as it is; this orders it for a live `ltt recover --list` too). */
	ltt_smp_wmb();
	ltt_set(&m->meta_len, m->meta_len + span);
	return 0;
}

/* Threads of this process now (entries of /proc/self/task), at least 1. */
static uint32_t count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	uint32_t n = 0;

	if (!d)
		return 64;	/* unknown: more than one (recover then trusts no hole's place) */
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n ? n : 1;
}

void ltt_shm_threads_add(int d)
{
	struct ltt_region *rg = ltt_read(&shm_rg);	/* the mapping outlives the stop: never unmapped */

	/* Relaxed: a count read after the process died (tools/recover/), pairs with no load here. */
	if (rg)
		__atomic_add_fetch(&ltt_shm_meta_of(rg)->threads, (uint32_t)d, __ATOMIC_RELAXED);
}

int ltt_shm_start(struct ltt_region *rg, int fd, const char *trace, const char *sys, size_t syslen)
{
	struct ltt_shm_meta *m = ltt_shm_meta_of(rg);
	int rc;

	pthread_mutex_lock(&shm_lock);
	shm_rg = rg;
	shm_fd = fd;
	memset(m, 0, sizeof(*m));
	{
		struct ltt_proc_id self;

		/* with the pid, the start time names the process for good */
		m->start_ticks = ltt_proc_id(0, &self) ? 0 : self.start;
	}
	m->meta_off = rg->size;
	m->meta_version = 1;
	m->state = LTT_SHM_RECORDING;
	m->threads = count_threads();	/* the recorder's threads started later add themselves */
	m->threads_known = 1;
	comm(m->program, sizeof(m->program));
	rc = append(LTT_SHM_REC_SYSTEM, sys, syslen, NULL, 0);
	if (!rc)
		rc = append(LTT_SHM_REC_TRACE_PATH, trace, strlen(trace), NULL, 0);
	/* Release: the header is complete before the magic says so. */
	ltt_smp_wmb();
	if (!rc)
		memcpy(m->magic, LTT_SHM_MAGIC, sizeof(m->magic));
	pthread_mutex_unlock(&shm_lock);
	return rc;
}

void ltt_shm_facility(const struct ltt_facility *fac)
{
	int rc;

	if (!fac->xml)
		return;
	pthread_mutex_lock(&shm_lock);
	if (shm_fd < 0) {
		pthread_mutex_unlock(&shm_lock);
		return;
	}
	rc = append(LTT_SHM_REC_FACILITY, fac->name, strlen(fac->name) + 1, fac->xml, strlen(fac->xml));
	pthread_mutex_unlock(&shm_lock);
	if (rc)
		ltt_warn("%s: facility %s: %s (`ltt recover` will not decode its events)", ltt_fl.shm_path,
			 fac->name, strerror(-rc));
}

void ltt_shm_stop(void)
{
	pthread_mutex_lock(&shm_lock);
	if (shm_fd >= 0) {
		ltt_set(&ltt_shm_meta_of(shm_rg)->state, LTT_SHM_STOPPED);
		/* The mapping stays (writers may still hold the region and find its rings closed,
		 * doc/recorder.md); the blocks' pages go with the file's data. */
		fallocate(shm_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)shm_rg->rings[0].data_off,
			  (off_t)(shm_rg->size - shm_rg->rings[0].data_off));
		unlink(ltt_fl.shm_path);
		close(shm_fd);
	}
	shm_fd = -1;
	shm_rg = NULL;
	pthread_mutex_unlock(&shm_lock);
}
