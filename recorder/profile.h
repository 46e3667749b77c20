/* SPDX-License-Identifier: MIT */
/* recorder/profile.h: profiling of the traced program (private; doc/recorder.md "Profiling"): CPU usage
 * sampling (sample_cpu.c), per-thread stack sampling (sample_stack.c), the memory map (maps.c), pause and
 * resume (pause.c), all run by libltt's sampler thread (sampler.c). */
#ifndef LTT_RECORDER_PROFILE_H
#define LTT_RECORDER_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#define LTT_STACK_MAX_DEPTH	128	/* frames kept per sample (deeper stacks are cut at the bottom) */
#define LTT_STACK_HZ_MAX	100000u
#define LTT_CPU_SAMPLE_MS_MAX	3600000u

/* sampler.c */
/* Reads LTT_CPU_SAMPLE_MS, LTT_STACK_SAMPLE_HZ, LTT_STACK_SIGNAL, LTT_PAUSE_SIGNAL into o / the pause
 * signal; checks o. Returns 0 or -EINVAL with why set. */
int ltt_profile_env(struct ltt_options *o, char *why, size_t n);
int ltt_profile_check(const struct ltt_options *o, char *why, size_t n);
/* After the trace is published: records core.sampling and the memory map, starts the sampler thread
 * and the stack timers. Errors leave the trace recording without profiling (one warning). */
void ltt_profile_start(const struct ltt_options *o);
/* Before the rings close: the last CPU sample, timers deleted, the sampler thread joined. */
void ltt_profile_stop(void);
/* fork child: nothing of the parent's sampling exists there. */
void ltt_profile_fork_child(void);
/* The sampler thread's id (0 when not running): not a thread of the traced program. */
uint32_t ltt_sampler_tid(void);
/* Wakes the sampler at once (async-signal-safe): used by resume. */
void ltt_sampler_wake(void);

/* sample_cpu.c: CPU usage of the process and of every live thread since the previous sample. */
int ltt_cpu_sample_init(void);		/* the baseline (no event) */
void ltt_cpu_sample(int emit);		/* emit = 0: only moves the baseline */
void ltt_cpu_sample_fini(void);

/* sample_stack.c */
int ltt_stack_start(unsigned hz, int sig, char *why, size_t n);
void ltt_stack_scan(void);		/* a timer for each thread that has none, none for gone ones */
void ltt_stack_stop(void);

/* maps.c: core.mapping for each executable mapping; ltt_maps_poll records them again when the set of
 * loaded objects changed (dlopen, dlclose). */
void ltt_maps_emit(void);
void ltt_maps_poll(void);

/* pause.c */
int ltt_pause_signal_parse(char *why, size_t n);
void ltt_pause_start(void);		/* installs the pause signal's handler */
void ltt_pause_stop(void);
int ltt_pause_take_resume(void);	/* 1 once after each resume: the sampler reports the usage then */
/* The sampler records a CPU sample only between ltt_pause_sample_begin() returning 1 (0: paused, no
 * sample) and ltt_pause_sample_end(); ltt_pause() waits for such a sample before core.pause. */
int ltt_pause_sample_begin(void);
void ltt_pause_sample_end(void);
int ltt_is_paused(void);

#endif
