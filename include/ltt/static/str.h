/* SPDX-License-Identifier: MIT */
/* ltt/static/str.h: measuring and copying a string field on the inline event path without a call to
 * the C library for short strings (generated code: ltt gen, doc/eventdefs.md). A string event is
 * measured once, before its reservation (its size is part of it), and its copy takes exactly the
 * bytes measured, ending with a NUL written here whatever the source holds by then (the format's
 * guarantee: a string field ends within its event). Not an API. */
#ifndef LTT_STATIC_STR_H
#define LTT_STATIC_STR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/static/ring.h>

/* The inline measure reads whole aligned 16-byte words around the string (never past a page, so
 * never a fault), which a sanitizer would report as reads out of the object: under one, strlen(). */
#if defined(__x86_64__) && defined(__SSE2__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define LTT_STR_SSE2 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#undef LTT_STR_SSE2
#endif
#endif

#ifdef LTT_STR_SSE2
#include <emmintrin.h>

/* Bit i set when byte i of the aligned 16 bytes at a is 0. */
static ltt_always_inline unsigned ltt_str_zeros16(const char *a)
{
	const __m128i v = _mm_load_si128((const __m128i *)(const void *)a);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
}
#endif

/* strlen(s): the first two aligned 16-byte words inline (a string of up to 16 bytes, wherever it
 * starts), longer strings by the C library's strlen from there. */
static ltt_always_inline size_t ltt_strlen(const char *s)
{
#ifdef LTT_STR_SSE2
	const char *a;
	unsigned m;

	if (__builtin_constant_p(strlen(s)))	/* a literal: the compiler counts it */
		return strlen(s);
	a = (const char *)((uintptr_t)s & ~(uintptr_t)15);
	m = ltt_str_zeros16(a) >> ((uintptr_t)s & 15);	/* bytes before s shifted out */
	if (ltt_likely(m))
		return (size_t)__builtin_ctz(m);
	a += 16;
	m = ltt_str_zeros16(a);
	if (ltt_likely(m))
		return (size_t)(a - s) + (size_t)__builtin_ctz(m);
	a += 16;
	/* a is within the string here; the compiler, seeing a small object in a caller, would warn
	 * about this read: it must not follow a's origin */
	__asm__ ("" : "+r"(a));
	return (size_t)(a - s) + strlen(a);
#else
	return strlen(s);
#endif
}

/* Copies the n bytes of a string measured by ltt_strlen (s may be NULL when n is 0), then a NUL;
 * returns the end. Up to 31 bytes: two overlapping moves of a power of two, no call. */
static ltt_always_inline char *ltt_putstrn(char *p, const char *s, size_t n)
{
	/* The moves stay within s[0 .. n], but the compiler, seeing a literal or an array of known size
	 * in a caller, would warn about the branches for longer strings: it does not see s's origin. */
	__asm__ ("" : "+r"(s));
	if (ltt_likely(n >= 8 && n < 32)) {
		if (n >= 16) {
			memcpy(p, s, 16);
			memcpy(p + n - 16, s + n - 16, 16);
		} else {
			memcpy(p, s, 8);
			memcpy(p + n - 8, s + n - 8, 8);
		}
	} else if (n >= 32) {
		memcpy(p, s, n);
	} else if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else if (n) {	/* 1 to 3 bytes */
		p[0] = s[0];
		p[n / 2] = s[n / 2];
		p[n - 1] = s[n - 1];
	}
	p[n] = '\0';
	return p + n + 1;
}

#endif
