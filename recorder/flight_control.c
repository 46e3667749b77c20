/* SPDX-License-Identifier: MIT */
/* recorder/flight_control.c: flight-recorder mode's life cycle (settings, start, stop, the snapshot at
 * exit) and the public ltt_snapshot() (doc/flight-recorder.md). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/io.h"
#include "common/proc.h"
#include "common/snapshot_registry.h"
#include "env_parse.h"
#include "flight.h"

#define CODE_WAIT_NS	5000000000ull	/* ltt_snapshot() waits this long for another snapshot */
/* info/system.xml as this process wrote it (recorder/tracedir.c: a command line at most, far below) */
#define SYSTEM_XML_MAX	(64u << 20)
#define SNAP_WAIT_NS	200000000ull	/* a snapshot waits this long for writers still committing */

struct ltt_flight ltt_fl = { .shm_fd = -1, .at_exit = 1 };
static int at_exit_set;		/* ltt_snapshot_at_exit() was called: the environment does not apply */

int ltt_flight_tid(void)
{
	return (int)syscall(SYS_gettid);
}

int ltt_flight_lock(int tid, uint64_t wait_ns)
{
	uint64_t deadline = ltt_mono_ns() + wait_ns;

	for (;;) {
		/* Full barrier: the previous owner's snapshot happens before ours (pairs with the
		 * release in ltt_flight_unlock()). */
		int o = ltt_cmpxchg(&ltt_fl.owner, 0, tid);

		if (!o)
			return 1;
		if (o == tid)
			return -EDEADLK;
		if (ltt_mono_ns() >= deadline)
			return 0;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

void ltt_flight_unlock(void)
{
	/* Full barrier: our snapshot is done before the next owner's CAS sees the lock free. */
	ltt_smp_mb();
	ltt_set(&ltt_fl.owner, 0);
}

/* ---- settings -------------------------------------------------------------------------------------- */

static int parse_at_exit(char *why, size_t whylen)
{
	uint64_t v;
	int rc;

	if (at_exit_set)
		return 0;
	rc = ltt_env_get(LTT_ENV_SNAPSHOT_AT_EXIT_ID, &v, why, whylen);
	if (rc > 0)
		ltt_fl.at_exit = (int)v;
	return rc < 0 ? rc : 0;
}

int ltt_flight_prepare(const struct ltt_options *opt, const struct ltt_region_geom *g, char *why,
		       size_t whylen)
{
	int rc = parse_at_exit(why, whylen), fd;

	if (!rc)
		rc = ltt_flight_signal_parse(why, whylen);
	if (!rc)
		rc = ltt_flight_trigger_parse(why, whylen);
	if (rc)
		return rc < -1 ? rc : -EINVAL;
	ltt_fl.shm_path[0] = 0;
	if (!opt->shm_dir || !*opt->shm_dir)
		return -1;
	fd = ltt_shm_create(opt->shm_dir, ltt_region_size(g), ltt_fl.shm_path, sizeof(ltt_fl.shm_path));
	if (fd < 0) {
		snprintf(why, whylen, "LTT_SHM_DIR=%s: %s", opt->shm_dir, strerror(-fd));
		return fd < -1 ? fd : -EINVAL;
	}
	return fd;
}

void ltt_flight_unprepare(int shm_fd)
{
	if (shm_fd < 0)
		return;
	close(shm_fd);
	if (ltt_fl.shm_path[0])
		unlink(ltt_fl.shm_path);
	ltt_fl.shm_path[0] = 0;
}

/* ---- the registry `ltt snapshot PID` reads --------------------------------------------------------- */

/* DIR/flight-PID while a flight trace records (common/snapshot_registry.h; DIR $XDG_RUNTIME_DIR/ltt,
 * else /tmp/ltt-UID): its path, the snapshot signal, the process's start time (field 22 of
 * /proc/self/stat, common/proc.h; 0 when unknown), so that `ltt snapshot` never signals another
 * process that reuses the pid of one that died without removing the file, and the program's device and
 * inode, so that it never signals the program this process exec()s (tools/snapshot/cmd_snapshot.c). */
static unsigned long long self_start_time(void)
{
	struct ltt_proc_id self;

	return ltt_proc_id(0, &self) ? 0 : self.start;
}

/* Makes (or takes) registry directory dir: ours alone, reached without a symlink. Its descriptor or -1. */
static int registry_dir(const char *dir)
{
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	/* another user's directory of that name (or a symlink) is not trusted: no registry */
	return ltt_snapreg_open_dir(dir, getuid(), NULL, 0);
}

/* The entry as written, for ltt_flight_registry_restore() (async-signal-safe: no formatting then). */
static char reg_text[PATH_MAX * 2 + 96];
static size_t reg_len;
static int reg_gone;	/* removed by ltt_flight_registry_remove_keep(), to be restored */

static void registry_add(int own_handler)
{
	char dirs[2][PATH_MAX], name[32], tmp[40], text[PATH_MAX * 2 + 96];
	struct ltt_snapreg_entry *e;
	struct stat st;
	int nd, dfd = -1, fd, n, k;

	ltt_fl.registry[0] = 0;
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	snprintf(e->path, sizeof(e->path), "%s", ltt_fl.path);
	e->sig = ltt_fl.snap_signal;
	e->start = self_start_time();
	e->own_handler = own_handler;
	e->thread = ltt_read(&ltt_fl.thread_tid);
	if (!stat("/proc/self/exe", &st)) {
		e->exe_dev = (unsigned long long)st.st_dev;
		e->exe_ino = (unsigned long long)st.st_ino;
	}
	n = ltt_snapreg_format(text, sizeof(text), e);
	free(e);
	if (n <= 0)
		return;
	nd = ltt_snapreg_dirs(getuid(), dirs);
	for (k = 0; k < nd && dfd < 0; k++)
		dfd = registry_dir(dirs[k]);
	if (dfd < 0)
		return;
	k--;
	snprintf(name, sizeof(name), "flight-%d", ltt_fl.pid);
	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		close(dfd);
		return;
	}
	if (write(fd, text, (size_t)n) != n) {
		close(fd);
		unlinkat(dfd, tmp, 0);
		close(dfd);
		return;
	}
	close(fd);
	if (renameat(dfd, tmp, dfd, name)) {
		unlinkat(dfd, tmp, 0);
	} else {	/* the fatal-signal handler removes it */
		snprintf(ltt_fl.registry, sizeof(ltt_fl.registry), "%s/%s", dirs[k], name);
		memcpy(reg_text, text, (size_t)n);
		reg_len = (size_t)n;
		reg_gone = 0;
	}
	close(dfd);
}

void ltt_flight_registry_own_handler(void)
{
	if (ltt_fl.registry[0] && (int)getpid() == ltt_fl.pid)
		registry_add(1);	/* rewritten whole: `ltt snapshot` says so instead of waiting */
}

void ltt_flight_registry_remove(void)
{
	if (ltt_fl.registry[0] && !reg_gone)
		unlink(ltt_fl.registry);
	ltt_fl.registry[0] = 0;
}

void ltt_flight_registry_remove_keep(void)
{
	if (ltt_fl.registry[0] && getpid() == ltt_fl.pid && !reg_gone) {
		unlink(ltt_fl.registry);
		reg_gone = 1;
	}
}

void ltt_flight_registry_restore(void)
{
	char tmp[sizeof(ltt_fl.registry) + 8];
	size_t n = strlen(ltt_fl.registry);
	int fd;

	if (!n || !reg_gone || getpid() != ltt_fl.pid || n + 5 > sizeof(tmp))
		return;
	memcpy(tmp, ltt_fl.registry, n);
	memcpy(tmp + n, ".tmp", 5);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (ltt_write_all(fd, reg_text, reg_len) || close(fd) || rename(tmp, ltt_fl.registry)) {
		unlink(tmp);
		return;
	}
	reg_gone = 0;
}

/* Async-signal-safe: one line on stderr built without stdio. */
static void say_parts(const char *const *parts, unsigned n)
{
	char line[3 * PATH_MAX];
	size_t len = 0;

	for (unsigned i = 0; i < n; i++)
		for (const char *p = parts[i]; *p && len + 2 < sizeof(line); p++)
			line[len++] = *p;
	line[len++] = '\n';
	if (write(2, line, len) < 0) {
		/* nowhere else to say it */
	}
}

void ltt_flight_say_recover(void)
{
	const char *parts[] = { "ltt: ", ltt_fl.path, ": the crash snapshot could not be written; the rings are in ",
				ltt_fl.shm_path, ": ltt recover ", ltt_fl.shm_path, " -o TRACE" };

	say_parts(parts, sizeof(parts) / sizeof(parts[0]));
}

void ltt_flight_crash_written(void)
{
	/* the snapshot holds what the rings' file would give `ltt recover`: the file goes (its pages
	 * are freed when the process dies), not left in LTT_SHM_DIR for nobody */
	if (ltt_fl.shm_path[0] && getpid() == ltt_fl.pid)
		unlink(ltt_fl.shm_path);
}

int ltt_flight_start(const struct ltt_trace_state *t, int shm_fd)
{
	char p[PATH_MAX + 32];
	size_t len;
	char *sys, *cut;
	int rc = 0;

	snprintf(p, sizeof(p), "%s/info/system.xml", t->path);
	rc = ltt_read_small_file(p, 0, SYSTEM_XML_MAX, &sys, &len);
	if (rc) {
		ltt_flight_unprepare(shm_fd);
		return rc;
	}
	/* ltt_snapshot="N" goes just before the '>' that ends <system ...'s attributes (values are
	 * escaped, so the first '>' is that one). */
	cut = strchr(sys, '>');
	if (!cut) {
		free(sys);
		ltt_flight_unprepare(shm_fd);
		return -EINVAL;
	}
	free(ltt_fl.sys_head);
	free(ltt_fl.scratch[0]);
	free(ltt_fl.scratch[1]);
	ltt_fl.sys_head = sys;
	ltt_fl.sys_head_len = (size_t)(cut - sys);
	ltt_fl.sys_tail = cut;
	ltt_fl.sys_tail_len = len - ltt_fl.sys_head_len;
	ltt_fl.scratch[0] = malloc(t->block_size);
	ltt_fl.scratch[1] = malloc(t->block_size);
	if (!ltt_fl.scratch[0] || !ltt_fl.scratch[1]) {
		ltt_flight_unprepare(shm_fd);
		return -ENOMEM;
	}
	snprintf(ltt_fl.path, sizeof(ltt_fl.path), "%s", t->path);
	ltt_fl.rg = t->rg;
	ltt_fl.ncpu = t->ncpu;
	ltt_fl.block_size = t->block_size;
	ltt_fl.blocks = t->blocks;
	ltt_fl.pid = (int)getpid();
	ltt_set(&ltt_fl.snap_no, 0);
	ltt_fl.shm_fd = shm_fd;
	if (shm_fd >= 0)
		rc = ltt_shm_start(t->rg, shm_fd, t->path, sys, len);
	if (rc) {
		ltt_shm_stop();		/* the file goes: it could not be made recoverable */
		ltt_fl.shm_fd = -1;
		return rc;
	}
	/* Release: everything above is set before a handler can see the trace active. */
	ltt_set(&ltt_fl.active, 1);
	ltt_flight_signals_install();
	ltt_flight_thread_start();	/* before the registry, which names it */
	registry_add(0);
	return 0;
}

void ltt_flight_stop(void)
{
	int tid = ltt_flight_tid(), locked;

	if (!ltt_read(&ltt_fl.active))
		return;
	ltt_flight_trigger_stop();	/* its last snapshot ends before the one at exit */
	locked = ltt_flight_lock(tid, CODE_WAIT_NS) == 1;
	if (ltt_fl.at_exit && !locked) {
		ltt_warn("snapshot at exit: %s: another snapshot did not end; none taken", ltt_fl.path);
	} else if (ltt_fl.at_exit) {
		char where[PATH_MAX];
		int rc = ltt_snapshot_write(where, sizeof(where), ltt_fl.scratch[0], SNAP_WAIT_NS);

		if (rc)
			ltt_warn("snapshot at exit: %s: %s", ltt_fl.path, strerror(-rc));
	}
	if (locked)
		ltt_flight_prune();	/* LTT_SNAPSHOT_KEEP */
	ltt_flight_signals_restore();
	if ((int)getpid() == ltt_fl.pid)
		ltt_flight_registry_remove();
	ltt_set(&ltt_fl.active, 0);
	if (ltt_fl.shm_fd >= 0)
		ltt_shm_stop();
	ltt_fl.shm_fd = -1;
	if (locked)
		ltt_flight_unlock();
}

void ltt_flight_facility(const struct ltt_facility *fac)
{
	if (ltt_fl.shm_fd >= 0)
		ltt_shm_facility(fac);
}

/* ---- public API ------------------------------------------------------------------------------------ */

int ltt_snapshot(char *path, size_t len)
{
	int tid = ltt_flight_tid(), rc;

	/* the trace that started us is the one recording (not one that failed to start) */
	if (!ltt_read(&ltt_fl.active) || (int)getpid() != ltt_fl.pid || ltt_read(&ltt_rt.region) != ltt_fl.rg)
		return -ENODEV;
	rc = ltt_flight_lock(tid, CODE_WAIT_NS);
	if (rc != 1)
		return rc ? rc : -EBUSY;
	rc = ltt_read(&ltt_fl.active) ? ltt_snapshot_write(path, len, ltt_fl.scratch[0], SNAP_WAIT_NS) : -ENODEV;
	if (!rc)
		ltt_flight_prune();	/* LTT_SNAPSHOT_KEEP */
	ltt_flight_unlock();
	return rc;
}

void ltt_snapshot_at_exit(int on)
{
	ltt_fl.at_exit = !!on;
	at_exit_set = 1;
}
