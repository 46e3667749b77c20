/* PLACEHOLDER until the recorder lands: the inline event path of libltt (see ltt/ltt.h).
 * The recorder replaces this file; the signatures below are the contract generated code uses. */
#ifndef LTT_STATIC_EVENT_H
#define LTT_STATIC_EVENT_H

#include <stddef.h>
#include <stdint.h>

#define ltt_likely(x)   __builtin_expect(!!(x), 1)
#define ltt_unlikely(x) __builtin_expect(!!(x), 0)

struct ltt_facility;

struct ltt_slot {
	char *payload;
};

extern int ltt_recording_flag;

static inline int ltt_is_recording(void)
{
	return __atomic_load_n(&ltt_recording_flag, __ATOMIC_RELAXED);
}

static inline int ltt_event_reserve(struct ltt_slot *s, struct ltt_facility *fac, unsigned event_index,
				    size_t payload_len, unsigned event_flags)
{
	(void)s; (void)fac; (void)event_index; (void)payload_len; (void)event_flags;
	return 0;
}

static inline void ltt_event_commit(struct ltt_slot *s)
{
	(void)s;
}

#endif
