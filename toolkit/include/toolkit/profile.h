/* SPDX-License-Identifier: MIT */
/* toolkit/profile.h: the profiling events of a trace (core.stack_sample, core.mapping, threads)
 * as the tools see them: each thread's whole stack rebuilt from the delta-encoded samples
 * (stack_decode.c), addresses symbolized through the binaries' ELF/DWARF symbols with elfutils' libdw
 * when the binaries are present (symbolize.c), functions numbered in order of appearance
 * (profile_model.c). Used by `ltt stats --profile` (profile_stats.c) and `ltt dump --format=tracelog`
 * (fmt_tracelog.c); doc/tracelog.md. */
#ifndef LTT_TOOLKIT_PROFILE_H
#define LTT_TOOLKIT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ltt/reader.h>

#include "common/hashmap.h"

#include "toolkit/event_tid.h"

#define PROF_MAX_DEPTH		128	/* the recorder's LTT_STACK_MAX_DEPTH */
#define PROF_DEPTH_UNKNOWN	0xFFFFu	/* `depth` of a sample that follows a lost one */

/* ---- stack_decode.c (no libdw: the unit tests link it) ------------------------------------------ */

/* A thread's stack as the samples so far make it (bottom first). */
struct prof_stack {
	uint64_t ips[PROF_MAX_DEPTH];
	unsigned depth;
	int known;		/* 0 until a whole sample (match 0) arrives, and after an inconsistent one */
};

/* The fields of one core.stack_sample. frames points into the event (trace byte order: decoded with
 * prof_sample_frame). */
struct prof_sample {
	uint32_t tid, ticks;
	unsigned match, depth, nframes;
	const unsigned char *frames;
	int big_endian;
};

/* Reads a core.stack_sample event; -EINVAL if it is malformed. */
int prof_sample_read(const struct ltt_event *ev, struct prof_sample *s);
uint64_t prof_sample_frame(const struct prof_sample *s, unsigned i);
/* Applies a sample to the thread's stack: 1 when the stack is known after it, 0 when it is not (a
 * sample that builds on a state the reader never saw: the start of a flight snapshot, or after a lost
 * sample), -EINVAL for a sample inconsistent with the stack (the stack becomes unknown). */
int prof_stack_apply(struct prof_stack *st, unsigned match, unsigned depth, const uint64_t *frames,
		     unsigned nframes);

/* ---- symbolize.c --------------------------------------------------------------------------------- */

struct prof_symbolizer;
struct prof_symbol {
	const char *name;	/* NULL when unknown */
	const char *module;	/* the mapping's path, NULL when no mapping holds the address */
	uint64_t offset;	/* with module: the address's offset in the module's file */
	uint64_t start, size;	/* the function's address and size (start = the address when unknown) */
};

struct prof_symbolizer *prof_sym_new(void);
void prof_sym_free(struct prof_symbolizer *s);
/* A core.mapping: the binary at path is used for addresses in [start, end) if it is present and its
 * build id is the one recorded (or none was). */
void prof_sym_mapping(struct prof_symbolizer *s, uint64_t start, uint64_t end, uint64_t offset,
		      const unsigned char *build_id, unsigned idlen, const char *path);
/* The function holding addr. Names and module strings live as long as s. */
int prof_sym_lookup(struct prof_symbolizer *s, uint64_t addr, struct prof_symbol *out);

/* ---- profile_model.c ----------------------------------------------------------------------------- */

struct prof_func {
	char *name;		/* a symbol, or "module+0xOFFSET", or "0xADDRESS" */
	const char *module;
	uint64_t start, size;	/* size 0 when unknown */
	int resolved;
	int64_t user;		/* free for the caller (tracelog: internal id, -1 until printed) */
	uint64_t self, total;	/* ticks (overall) */
	uint64_t mark;		/* the sample that counted it last (total counts a function once) */
};

struct prof_thread {
	uint32_t tid;
	int64_t user;		/* free for the caller */
	char name[32];
	struct prof_stack stack;
	uint64_t samples, ticks, lost;	/* samples applied, their ticks, samples that could not be */
};

LTT_MAP_DEFINE(prof_ip_map, uint64_t, uint32_t, ltt_hash_u64, ltt_eq_u64)

struct prof_model {
	struct prof_symbolizer *sym;
	struct prof_thread *threads;
	size_t nthreads, cap_threads;
	struct prof_func *funcs;
	size_t nfuncs, cap_funcs;
	struct prof_ip_map ips;	/* (ip, top frame) -> function */
	uint64_t samples, ticks, unknown;	/* stack samples, their ticks, those not applicable */
	uint64_t mark;
	unsigned hz;		/* from core.sampling */
};

int prof_model_init(struct prof_model *m);
void prof_model_free(struct prof_model *m);
struct prof_thread *prof_thread(struct prof_model *m, uint32_t tid, int *created);
/* The function of an address of a stack: top frames are the interrupted instruction, the others
 * return addresses (looked up one byte before, in the call). Returns its index in m->funcs, or -ENOMEM. */
long prof_func_of(struct prof_model *m, uint64_t ip, int top);
/* core.mapping and core.sampling events: fed to the model. 1 if ev was one of them. */
int prof_model_event(struct prof_model *m, const struct ltt_event *ev);
/* A core.stack_sample: applied to its thread; 1 with *t set when the thread's stack is known,
 * 0 when not (counted in m->unknown and the thread's lost), -EINVAL for a malformed event. */
int prof_model_sample(struct prof_model *m, const struct ltt_event *ev, struct prof_thread **t,
		      struct prof_sample *s);
/* Whether ev is core.NAME (also in 2004-dialect traces, never builtin). */
int prof_is_core(const struct ltt_event *ev, const char *name);
/* Unsigned field NAME of ev's body (0 when absent). */
uint64_t prof_field_u64(const struct ltt_event *ev, const char *name);

#endif
