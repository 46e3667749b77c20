/* SPDX-License-Identifier: MIT */
/* Waits on locks (LTT_WAITS=1, doc/recorder.md "Waits on locks"): libltt defines pthread_mutex_lock,
 * pthread_cond_wait, pthread_cond_timedwait, sem_wait, pthread_rwlock_rdlock and _wrlock, which
 * interpose the C library's for the program (libltt.so comes before libc.so.6 in the link order; a
 * program linked with libltt.a carries them itself; LD_PRELOAD=libltt.so for any program). Without
 * LTT_WAITS they only call the C library's. With it, a lock first tries without blocking (the
 * trylock is all an uncontended lock costs); when that fails, the holder is read from the lock
 * (glibc's mutex __owner, rwlock __cur_writer: the tid it stores itself), the blocking call is timed
 * with CLOCK_MONOTONIC, and a wait of at least the threshold (LTT_WAITS_THRESHOLD_US, default 10) is
 * an ltt.wait event (eventdefs/ltt.xml). Condition variables and semaphores at 0 are always timed. A
 * wait inside the recording of a wait (a lock taken by the event path's slow paths) is not recorded. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env_parse.h"
#include "recorder.h"

/* The generated encoders of eventdefs/ltt.xml, registered only when waits are recorded. */
#define LTT_GEN_REGISTER(fac) 0
#include "ltt.h"

enum { WAIT_MUTEX, WAIT_COND, WAIT_SEM, WAIT_RDLOCK, WAIT_WRLOCK };

/* The C library's functions, looked up once (the first call, or the constructor): the next
 * definition after libltt's (or after the program's, when libltt.a is linked in), in the versions a
 * program links today (dlvsym: not pthread_cond_wait's 2.2.5 compatibility one). */
static int (*real_mutex_lock)(pthread_mutex_t *);
static int (*real_rdlock)(pthread_rwlock_t *);
static int (*real_wrlock)(pthread_rwlock_t *);
static int (*real_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
static int (*real_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
static int (*real_sem_wait)(sem_t *);

static int waits_on;		/* LTT_WAITS: set once by the constructor, before threads */
static uint64_t waits_min_ns = 10000;
static __thread int in_wait;	/* this thread is recording a wait */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The next definition of a versioned function (pthread_cond_*wait): the C library's current version
 * by dlvsym; but when something interposes it between libltt and the C library (ThreadSanitizer's
 * runtime does, unversioned), that interposer's, which calls the right version itself: skipping it
 * would hide the mutex release inside the wait from it. */
static void *next_versioned(const char *name, const char *version)
{
	void *any = dlsym(RTLD_NEXT, name), *ver = dlvsym(RTLD_NEXT, name, version);
	Dl_info a, v;

	if (any && ver && dladdr(any, &a) && dladdr(ver, &v) && a.dli_fbase != v.dli_fbase)
		return any;
	return ver ? ver : any;
}

static void resolve(void)
{
	if (!real_mutex_lock)
		real_mutex_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	if (!real_rdlock)
		real_rdlock = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_rdlock");
	if (!real_wrlock)
		real_wrlock = (int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
	if (!real_cond_wait)
		real_cond_wait = (int (*)(pthread_cond_t *, pthread_mutex_t *))
			next_versioned("pthread_cond_wait", "GLIBC_2.3.2");
	if (!real_cond_timedwait)
		real_cond_timedwait = (int (*)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
			next_versioned("pthread_cond_timedwait", "GLIBC_2.3.2");
	if (!real_sem_wait)
		real_sem_wait = (int (*)(sem_t *))dlsym(RTLD_NEXT, "sem_wait");
}

static void emit(unsigned kind, const void *lock, uint64_t t0, uint32_t holder, const void *mutex)
{
	uint64_t d = mono_ns() - t0;

	if (d < waits_min_ns || in_wait || !ltt_is_recording())
		return;
	in_wait = 1;
	trace_ltt_wait(ltt_tid(), kind, (uint64_t)(uintptr_t)lock, d, holder, (uint64_t)(uintptr_t)mutex);
	in_wait = 0;
}

__attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t *m)
{
	uint32_t holder;
	uint64_t t0;
	int rc;

	if (__builtin_expect(!real_mutex_lock, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_mutex_lock(m);
	rc = pthread_mutex_trylock(m);
	if (__builtin_expect(rc != EBUSY, 1))
		return rc;	/* taken (or an error checking mutex's EDEADLK/EINVAL...: the lock says) */
	holder = (uint32_t)__atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED);	/* a hint: no pair */
	t0 = mono_ns();
	rc = real_mutex_lock(m);
	if (rc == 0)
		emit(WAIT_MUTEX, m, t0, holder, NULL);
	return rc;
}

static int rw_lock(pthread_rwlock_t *l, int wr)
{
	uint32_t holder;
	uint64_t t0;
	int rc = wr ? pthread_rwlock_trywrlock(l) : pthread_rwlock_tryrdlock(l);

	if (__builtin_expect(rc != EBUSY, 1))
		return rc;
	holder = (uint32_t)__atomic_load_n(&l->__data.__cur_writer, __ATOMIC_RELAXED);	/* a hint */
	t0 = mono_ns();
	rc = wr ? real_wrlock(l) : real_rdlock(l);
	if (rc == 0)
		emit(wr ? WAIT_WRLOCK : WAIT_RDLOCK, l, t0, holder, NULL);
	return rc;
}

__attribute__((visibility("default"))) int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	if (__builtin_expect(!real_rdlock, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_rdlock(l);
	return rw_lock(l, 0);
}

__attribute__((visibility("default"))) int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	if (__builtin_expect(!real_wrlock, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_wrlock(l);
	return rw_lock(l, 1);
}

__attribute__((visibility("default"))) int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	uint64_t t0;
	int rc;

	if (__builtin_expect(!real_cond_wait, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_cond_wait(c, m);
	t0 = mono_ns();
	rc = real_cond_wait(c, m);
	emit(WAIT_COND, c, t0, 0, m);
	return rc;
}

__attribute__((visibility("default"))) int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
								   const struct timespec *abstime)
{
	uint64_t t0;
	int rc;

	if (__builtin_expect(!real_cond_timedwait, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_cond_timedwait(c, m, abstime);
	t0 = mono_ns();
	rc = real_cond_timedwait(c, m, abstime);
	emit(WAIT_COND, c, t0, 0, m);
	return rc;
}

__attribute__((visibility("default"))) int sem_wait(sem_t *s)
{
	uint64_t t0;
	int rc;

	if (__builtin_expect(!real_sem_wait, 0))
		resolve();
	if (__builtin_expect(!waits_on, 1))
		return real_sem_wait(s);
	if (sem_trywait(s) == 0)
		return 0;
	if (errno != EAGAIN)
		return -1;
	t0 = mono_ns();
	rc = real_sem_wait(s);
	if (rc == 0)
		emit(WAIT_SEM, s, t0, 0, NULL);
	return rc;
}

/* Before the recorder starts (constructor 102; called by the core facility's constructor, 101): the C
 * library's functions, and LTT_WAITS. */
void ltt_waits_init(void)
{
	char why[160];
	uint64_t on = 0, us;
	int rc;

	resolve();
	/* a bad value of either leaves waits off; libltt's start refuses it in one line and does not
	 * trace (recorder/control.c) */
	if (ltt_env_get(LTT_ENV_WAITS_ID, &on, why, sizeof(why)) <= 0 || !on)
		return;
	if ((rc = ltt_env_get(LTT_ENV_WAITS_THRESHOLD_US_ID, &us, why, sizeof(why))) < 0)
		return;
	if (rc)
		waits_min_ns = us * 1000;
	if (ltt_facility_register(&ltt_facility_ltt) == 0)
		waits_on = 1;
}
