/* SPDX-License-Identifier: MIT */
/* recorder/threads.h: libltt's wrappers of pthread_create, pthread_setname_np and fork. */
#ifndef LTT_RECORDER_THREADS_H
#define LTT_RECORDER_THREADS_H

#include <pthread.h>

/* pthread_create of the C library (libltt's own threads are not traced). */
int ltt_real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

#endif
