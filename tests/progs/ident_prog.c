/* SPDX-License-Identifier: MIT */
/* ident_prog: helper of tests/e2e/thread_identity.sh (one owner of thread identity, issue 35 point 2,
 * issue 33 point 3). Recording is started by LTT_TRACE (with LTT_KERNEL). The main thread starts
 *   - "worker-a" through pthread_create (libltt's interposer: core.thread_start records it), named
 *     with pthread_setname_np;
 *   - "bg-hidden" through the C library's own pthread_create, found with dlsym in libc.so.6 (behind
 *     the interposer, as a library that calls the C library directly: no core.thread_start), named by
 *     the thread itself with prctl(PR_SET_NAME);
 * each makes 50 getppid calls and sleeps 1 ms 5 times (switches), then ends. Prints "pid PID",
 * "main TID", "worker-a TID", "bg-hidden TID". */
#include <dlfcn.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static long gettid_(void)
{
	return syscall(SYS_gettid);
}

static void work(void)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 50; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < 5; i++)
		nanosleep(&ms, NULL);
}

static void *worker_a(void *arg)
{
	(void)arg;
	printf("worker-a %ld\n", gettid_());
	work();
	return NULL;
}

static void *bg_hidden(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "bg-hidden", 0, 0, 0);
	printf("bg-hidden %ld\n", gettid_());
	work();
	return NULL;
}

int main(void)
{
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	create_fn libc_create = libc ? (create_fn)dlsym(libc, "pthread_create") : NULL;
	pthread_t a, b;

	if (!libc_create || (void *)libc_create == (void *)pthread_create) {
		fprintf(stderr, "ident_prog: the C library's own pthread_create not found apart from libltt's\n");
		return 1;
	}
	/* libltt started from LTT_TRACE (and this call links it: a sanitizer's runtime defines
	 * pthread_create too, so no other symbol pulls libltt.a in) */
	if (getenv("LTT_TRACE") && !ltt_recording()) {
		fprintf(stderr, "ident_prog: LTT_TRACE set but libltt is not recording\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %ld\nmain %ld\n", (long)getpid(), gettid_());
	if (pthread_create(&a, NULL, worker_a, NULL))
		return 1;
	pthread_setname_np(a, "worker-a");
	if (libc_create(&b, NULL, bg_hidden, NULL))
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	work();
	return 0;
}
