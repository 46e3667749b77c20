/* SPDX-License-Identifier: MIT */
/* recorder/threads.c: threads and forks of the traced program, with no registration call: libltt
 * defines pthread_create, pthread_setname_np, prctl and fork, which call the C library's and record
 * core.thread_start / thread_exit / thread_name / process_fork while a trace records. */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder.h"
#include "flight.h"
#include "kernel.h"
#include "threads.h"

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*setname_fn)(pthread_t, const char *);
typedef pid_t (*fork_fn)(void);

static void *next_sym(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

int ltt_real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	static create_fn real;
	create_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);

	if (!f) {
		f = (create_fn)next_sym("pthread_create");
		if (!f)
			return EAGAIN;
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	return f(t, attr, fn, arg);
}

struct start {
	void *(*fn)(void *);
	void *arg;
};

static void on_exit_(void *unused)
{
	(void)unused;
	ltt_kernel_thread_end();	/* its last run_delay sample: its schedstat ends with it */
	ltt_core_thread_exit();
}

static void *trampoline(void *p)
{
	struct start st = *(struct start *)p;
	void *ret;

	free(p);
	ltt_shm_threads_add(1);	/* never taken back: it may have written after another thread's hole */
	ltt_core_thread_start();
	pthread_cleanup_push(on_exit_, NULL);
	ret = st.fn(st.arg);
	pthread_cleanup_pop(1);
	return ret;
}

__attribute__((visibility("default")))
int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	struct start *st;
	int rc;

	if (!ltt_is_recording())
		return ltt_real_pthread_create(t, attr, fn, arg);
	st = malloc(sizeof(*st));
	if (!st)
		return ltt_real_pthread_create(t, attr, fn, arg);
	st->fn = fn;
	st->arg = arg;
	rc = ltt_real_pthread_create(t, attr, trampoline, st);
	if (rc)
		free(st);
	return rc;
}

__attribute__((visibility("default")))
int pthread_setname_np(pthread_t t, const char *name)
{
	static setname_fn real;
	setname_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);
	int rc;

	if (!f) {
		f = (setname_fn)next_sym("pthread_setname_np");
		if (!f)
			return ENOSYS;
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	rc = f(t, name);
	/* The thread id of another thread is not available from a pthread_t: only renames of the
	 * calling thread are recorded. */
	if (!rc && ltt_is_recording() && pthread_equal(t, pthread_self()))
		ltt_core_thread_name((uint32_t)syscall(SYS_gettid), name);
	return rc;
}

typedef int (*prctl_fn)(int, unsigned long, unsigned long, unsigned long, unsigned long);

/* prctl(PR_SET_NAME) renames the calling thread (the main thread of many programs does it this way):
 * recorded as core.thread_name, with the name the kernel keeps (15 bytes). The C library's prctl
 * reads four arguments after the option whatever the option; so do we. */
__attribute__((visibility("default")))
int prctl(int option, ...)
{
	static prctl_fn real;
	prctl_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);
	unsigned long a[4];
	va_list ap;
	int rc;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (!f) {
		f = (prctl_fn)next_sym("prctl");
		if (!f) {
			errno = ENOSYS;
			return -1;
		}
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	rc = f(option, a[0], a[1], a[2], a[3]);
	if (rc == 0 && option == PR_SET_NAME && a[0] && ltt_is_recording()) {
		int e = errno;
		uint32_t tid = (uint32_t)syscall(SYS_gettid);
		char name[16];

		if (tid != ltt_consumer_tid()) {
			strncpy(name, (const char *)a[0], sizeof(name) - 1);
			name[sizeof(name) - 1] = 0;
			ltt_core_thread_name(tid, name);
		}
		errno = e;
	}
	return rc;
}

__attribute__((visibility("default")))
pid_t fork(void)
{
	static fork_fn real;
	fork_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);
	pid_t pid;

	if (!f) {
		f = (fork_fn)next_sym("fork");
		if (!f) {
			errno = ENOSYS;
			return -1;
		}
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	pid = f();
	if (pid > 0 && ltt_is_recording())
		ltt_core_process_fork((uint32_t)getpid(), (uint32_t)pid);
	return pid;
}
