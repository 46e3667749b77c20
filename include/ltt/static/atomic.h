/* SPDX-License-Identifier: MIT */
/* ltt/static/atomic.h: the atomic operations and barriers of libltt's ring buffer.
 *
 * Normally liburcu's (0.13): uatomic_* and cmm_*. ThreadSanitizer does not see liburcu's inline
 * assembly, so under it the same operations map to the compiler's __atomic builtins with the ordering
 * the liburcu operation gives on x86 (RMWs are full barriers, loads acquire, stores release), and the
 * standalone barriers become no-ops that the acquire/release accesses stand in for.
 */
#ifndef LTT_STATIC_ATOMIC_H
#define LTT_STATIC_ATOMIC_H

#if defined(__SANITIZE_THREAD__)
#define LTT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LTT_TSAN 1
#endif
#endif

#ifdef LTT_TSAN
#define ltt_read(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ltt_set(p, v)		__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define ltt_cmpxchg(p, o, n)	__extension__ ({ __typeof__(*(p)) ltt_o_ = (o); \
		__atomic_compare_exchange_n((p), &ltt_o_, (n), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); ltt_o_; })
#define ltt_add(p, v)		((void)__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST))
#define ltt_add_return(p, v)	__atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define ltt_xchg(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define ltt_smp_mb()		do { } while (0)	/* TSan rejects fences; see above */
#define ltt_smp_rmb()		do { } while (0)
#define ltt_smp_wmb()		do { } while (0)
#else
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#define ltt_read(p)		uatomic_read(p)
#define ltt_set(p, v)		uatomic_set((p), (v))
#define ltt_cmpxchg(p, o, n)	uatomic_cmpxchg((p), (o), (n))
/* uatomic_add is not a barrier in liburcu's API; add_return is, and costs the same (lock xadd). */
#define ltt_add(p, v)		((void)uatomic_add_return((p), (v)))
#define ltt_add_return(p, v)	uatomic_add_return((p), (v))
#define ltt_xchg(p, v)		uatomic_xchg((p), (v))
#define ltt_smp_mb()		cmm_smp_mb()
#define ltt_smp_rmb()		cmm_smp_rmb()
#define ltt_smp_wmb()		cmm_smp_wmb()
#endif

#endif
