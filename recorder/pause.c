/* SPDX-License-Identifier: MIT */
/* recorder/pause.c: ltt_pause() / ltt_resume() and the signal that toggles them (LTT_PAUSE_SIGNAL).
 * While paused no event is recorded: the event path's own "recording" test says no, so a paused event
 * costs what an event costs when nothing records. core.pause is recorded before the gate closes and
 * core.resume after it opens again; the sampler reports CPU usage at resume against its last sample
 * before the pause (TraceLog's rule), and a sample it is recording when the pause comes is recorded
 * before core.pause (ltt_pause_sample_begin: no CPU sample lies between core.pause and core.resume). Everything here is async-signal-safe. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "env_parse.h"
#include "profile.h"
#include "recorder.h"
#include "rules.h"

static int paused;		/* 1 between ltt_pause() and ltt_resume() */
static int active;		/* 1 while a trace records (between profile start and stop) */
static int resumed;		/* set by a resume, taken by the sampler */
static int sampling;		/* 1 while the sampler records a CPU sample (ltt_pause_sample_begin) */
static int quiet;		/* 1 from before core.pause to after core.resume: no CPU sample */
static int pause_sig;		/* LTT_PAUSE_SIGNAL, 0: none */
static struct sigaction old_sa;
static int installed;

static void mark(unsigned index)
{
	uint32_t tid = (uint32_t)syscall(SYS_gettid);

	ltt_core_emit(index, &tid, sizeof(tid), LTT_EVENT_PERSISTENT);
}

/* Opens (1) or closes (0) the event path's gate. */
static void gate(int on)
{
	/* A stop that ran between our test of `active` and this store has already cleared the flag:
	 * close it again. Sequentially consistent exchange, then load (a full barrier between them, and
	 * no fence: ThreadSanitizer does not model fences); pairs with the seq_cst store of `active` in
	 * ltt_pause_stop(), which ltt_stop() makes before it clears `recording`: either we see active 0,
	 * or our store came first and ltt_stop()'s clears it after. */
	__atomic_exchange_n(&ltt_rt.recording, on, __ATOMIC_SEQ_CST);
	if (on && !__atomic_load_n(&active, __ATOMIC_SEQ_CST))
		ltt_set(&ltt_rt.recording, 0);
	ltt_events_gate();	/* the enabled flags generated code tests follow (recorder/rules.h) */
}

/* Waits for a CPU sample the sampler began before it could see `paused`, so that no sample is recorded
 * after core.pause (the sampler blocks every signal, so this never waits on the thread it interrupts).
 * At most 1 s: the recorder never hangs the program. Async-signal-safe (nanosleep). */
static void wait_sample(void)
{
	struct timespec ts = { 0, 100000 };	/* 0.1 ms */

	/* seq_cst load after the seq_cst store of `quiet` in ltt_pause(): the other half of the
	 * handshake of ltt_pause_sample_begin(); it also acquires ltt_pause_sample_end()'s release. */
	for (int i = 0; i < 10000 && __atomic_load_n(&sampling, __ATOMIC_SEQ_CST); i++)
		nanosleep(&ts, NULL);
}

int ltt_pause_sample_begin(void)
{
	/* Dekker's handshake: the seq_cst store of `sampling` then the seq_cst load of `quiet` here,
	 * the seq_cst store of `quiet` then the seq_cst load of `sampling` in ltt_pause(): at least
	 * one side sees the other's store, so either the sampler skips this sample or ltt_pause() waits
	 * for it to be recorded before it records core.pause. `quiet` is cleared only after
	 * core.resume is recorded (ltt_resume()), so no sample falls between the two either. */
	__atomic_store_n(&sampling, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&quiet, __ATOMIC_SEQ_CST))
		return 1;
	__atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);	/* pairs with wait_sample()'s load */
	return 0;
}

void ltt_pause_sample_end(void)
{
	__atomic_store_n(&sampling, 0, __ATOMIC_RELEASE);	/* pairs with wait_sample()'s load */
}

int ltt_pause(void)
{
	int e = errno;

	if (!__atomic_load_n(&active, __ATOMIC_SEQ_CST))
		return -ENODEV;
	if (__atomic_exchange_n(&paused, 1, __ATOMIC_SEQ_CST))
		return 0;
	__atomic_store_n(&quiet, 1, __ATOMIC_SEQ_CST);	/* pairs with ltt_pause_sample_begin() */
	wait_sample();
	mark(LTT_CORE_PAUSE);
	gate(0);
	errno = e;
	return 0;
}

int ltt_resume(void)
{
	int e = errno;

	if (!__atomic_load_n(&active, __ATOMIC_SEQ_CST))
		return -ENODEV;
	if (!__atomic_exchange_n(&paused, 0, __ATOMIC_SEQ_CST))
		return 0;
	gate(1);
	mark(LTT_CORE_RESUME);
	/* after core.resume: pairs with the seq_cst load of ltt_pause_sample_begin() */
	__atomic_store_n(&quiet, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&resumed, 1, __ATOMIC_SEQ_CST);
	ltt_sampler_wake();
	errno = e;
	return 0;
}

int ltt_paused(void)
{
	return __atomic_load_n(&paused, __ATOMIC_RELAXED);
}

int ltt_is_paused(void)
{
	return __atomic_load_n(&paused, __ATOMIC_RELAXED);
}

int ltt_pause_take_resume(void)
{
	return __atomic_exchange_n(&resumed, 0, __ATOMIC_SEQ_CST);
}

static void on_pause_signal(int sig)
{
	(void)sig;
	if (ltt_is_paused())
		ltt_resume();
	else
		ltt_pause();
}

int ltt_pause_signal_parse(char *why, size_t n)
{
	const char *v = secure_getenv("LTT_PAUSE_SIGNAL");

	pause_sig = 0;
	if (!v || !*v || !strcmp(v, "none"))
		return 0;
	pause_sig = ltt_signal_number(v);
	if (pause_sig < 0 || pause_sig == SIGSEGV || pause_sig == SIGBUS || pause_sig == SIGILL ||
	    pause_sig == SIGFPE || pause_sig == SIGABRT) {
		ltt_env_why(why, n, "LTT_PAUSE_SIGNAL", v, "not a signal name or number (and not a fault)");
		pause_sig = 0;
		return -EINVAL;
	}
	return 0;
}

void ltt_pause_start(void)
{
	struct sigaction sa;

	__atomic_store_n(&paused, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&quiet, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&resumed, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&active, 1, __ATOMIC_SEQ_CST);
	if (!pause_sig || installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_pause_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!sigaction(pause_sig, &sa, &old_sa))
		installed = 1;
}

/* Before ltt_stop() clears the recording flag (see gate()). */
void ltt_pause_stop(void)
{
	__atomic_store_n(&active, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&paused, 0, __ATOMIC_SEQ_CST);
	if (installed) {
		sigaction(pause_sig, &old_sa, NULL);
		installed = 0;
	}
}
