/* SPDX-License-Identifier: MIT */
/* tools/export/pf_samples.c: stack samples in `ltt export --format=perfetto` (tools/export/
 * exp_perfetto.c): each decodable core.stack_sample becomes a PerfSample packet (pid, tid, callstack)
 * on the exporter's sequence, with the callstack, its frames, their functions (symbolized as for
 * `ltt stats --profile`), mappings and paths interned in the InternedData of the packet that first
 * uses them (Perfetto's profile_common.proto field numbers). Bounded: past PFS_MAX callstacks or
 * frames, samples needing new ones are left out (counted). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "pb.h"
#include "pf_samples.h"
#include "toolkit/profile.h"

enum {
	TP_PERF_SAMPLE = 66, PS_CPU = 1, PS_PID = 2, PS_TID = 3, PS_CALLSTACK_IID = 4,
	ID_FUNCTION_NAMES = 5, ID_FRAMES = 6, ID_CALLSTACKS = 7, ID_BUILD_IDS = 16, ID_MAPPING_PATHS = 17,
	ID_MAPPINGS = 19,
	IS_IID = 1, IS_STR = 2,
	FR_IID = 1, FR_FUNCTION_NAME_ID = 2, FR_MAPPING_ID = 3, FR_REL_PC = 4,
	CS_IID = 1, CS_FRAME_IDS = 2,
	MP_IID = 1, MP_BUILD_ID = 2, MP_START_OFFSET = 3, MP_START = 4, MP_END = 5, MP_PATH_IDS = 7,
};

#define PFS_MAX 65536u

struct pfs_map {
	uint64_t start, end, offset, iid;
	char *path;
};

LTT_MAP_DEFINE(pfs_frames, uint64_t, uint64_t, ltt_hash_u64, ltt_eq_u64)	/* ip*2 + top -> frame iid */
/* callstacks (their frame iids, bottom first; a copy owned by the table once put) -> callstack iid */
LTT_MAP_DEFINE(pfs_stacks, struct ltt_bytes_key, uint64_t, ltt_bytes_key_hash, ltt_bytes_key_eq)

struct prof_pf {
	struct prof_model m;
	struct pfs_map *maps;
	size_t nmaps, cap_maps;
	struct pfs_frames fr;		/* at most PFS_MAX */
	struct pfs_stacks cs;		/* at most PFS_MAX */
	uint64_t next_iid;		/* one counter for every table: iids are unique anyway */
	uint32_t pid;
	uint64_t left_out;
};

struct prof_pf *prof_pf_new(uint32_t pid)
{
	struct prof_pf *s = calloc(1, sizeof(*s));

	if (!s || prof_model_init(&s->m)) {
		free(s);
		return NULL;
	}
	s->pid = pid;
	s->next_iid = 1;
	return s;
}

void prof_pf_free(struct prof_pf *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmaps; i++)
		free(s->maps[i].path);
	free(s->maps);
	pfs_frames_free(&s->fr);
	for (size_t i = 0; i < s->cs.size; i++)
		if (s->cs.slot[i].used)
			free((void *)s->cs.slot[i].key.p);
	pfs_stacks_free(&s->cs);
	prof_model_free(&s->m);
	free(s);
}

uint64_t prof_pf_left_out(const struct prof_pf *s)
{
	return s->left_out + s->m.unknown;
}

static void add_map(struct prof_pf *s, const struct ltt_event *ev)
{
	struct ltt_value body, f;
	const char *path;
	struct pfs_map *m;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, "path", &f) || !(path = ltt_value_string(&f, NULL)))
		return;
	if (s->nmaps + 1 > PFS_MAX || LTT_GROW(s->maps, s->nmaps + 1, s->cap_maps))
		return;
	m = &s->maps[s->nmaps];
	m->start = prof_field_u64(ev, "start");
	m->end = prof_field_u64(ev, "end");
	m->offset = prof_field_u64(ev, "offset");
	m->iid = 0;
	m->path = strdup(path);
	if (m->path)
		s->nmaps++;
}

/* The newest mapping holding ip (its iid, the Mapping interned the first time). */
static struct pfs_map *map_of(struct prof_pf *s, uint64_t ip, struct pb *in)
{
	for (size_t i = s->nmaps; i-- > 0;) {
		struct pfs_map *m = &s->maps[i];
		size_t o;

		if (ip < m->start || ip >= m->end)
			continue;
		if (!m->iid) {
			uint64_t path_iid = s->next_iid++;

			m->iid = s->next_iid++;
			o = pb_begin(in, ID_MAPPING_PATHS);
			pb_uint(in, IS_IID, path_iid);
			pb_str(in, IS_STR, m->path);
			pb_end(in, o);
			o = pb_begin(in, ID_MAPPINGS);
			pb_uint(in, MP_IID, m->iid);
			pb_uint(in, MP_START_OFFSET, m->offset);
			pb_uint(in, MP_START, m->start);
			pb_uint(in, MP_END, m->end);
			pb_uint(in, MP_PATH_IDS, path_iid);
			pb_end(in, o);
		}
		return m;
	}
	return NULL;
}

/* The frame iid of an address (interned with its function name and mapping the first time); 0 when
 * the table is full. */
static int64_t frame_of(struct prof_pf *s, uint64_t ip, int top, struct pb *in)
{
	uint64_t key = ip * 2 + (top ? 1 : 0), iid, *v;
	struct prof_func *fn;
	struct pfs_map *m;
	size_t o;
	long f;

	if ((v = pfs_frames_find(&s->fr, key)))
		return (int64_t)*v;
	if (s->fr.count >= PFS_MAX)
		return 0;
	f = prof_func_of(&s->m, ip, top);
	if (f < 0)
		return f;
	fn = &s->m.funcs[f];
	if (fn->user < 0) {	/* the function's name, interned once */
		fn->user = (int64_t)s->next_iid++;
		o = pb_begin(in, ID_FUNCTION_NAMES);
		pb_uint(in, IS_IID, (uint64_t)fn->user);
		pb_str(in, IS_STR, fn->name);
		pb_end(in, o);
	}
	m = map_of(s, ip, in);
	iid = s->next_iid++;
	o = pb_begin(in, ID_FRAMES);
	pb_uint(in, FR_IID, iid);
	pb_uint(in, FR_FUNCTION_NAME_ID, (uint64_t)fn->user);
	if (m) {
		pb_uint(in, FR_MAPPING_ID, m->iid);
		pb_uint(in, FR_REL_PC, ip - m->start + m->offset);
	}
	pb_end(in, o);
	if (!(v = pfs_frames_put(&s->fr, key, NULL)))
		return -ENOMEM;
	*v = iid;
	return (int64_t)iid;
}

/* The callstack iid of frames[0..n) (bottom first), interned the first time; 0 when full. */
static int64_t callstack_of(struct prof_pf *s, const uint64_t *frames, uint32_t n, struct pb *in)
{
	struct ltt_bytes_key k = ltt_bytes_key(frames, 8ull * n);
	uint64_t *iid, *copy;
	size_t o;

	if ((iid = pfs_stacks_find(&s->cs, k)))
		return (int64_t)*iid;
	if (s->cs.count >= PFS_MAX)
		return 0;
	if (!(copy = malloc(8ull * (n ? n : 1))))
		return -ENOMEM;
	memcpy(copy, frames, 8ull * n);
	k.p = copy;
	if (!(iid = pfs_stacks_put(&s->cs, k, NULL))) {
		free(copy);
		return -ENOMEM;
	}
	*iid = s->next_iid++;
	o = pb_begin(in, ID_CALLSTACKS);
	pb_uint(in, CS_IID, *iid);
	for (uint32_t i = 0; i < n; i++)
		pb_uint(in, CS_FRAME_IDS, frames[i]);
	pb_end(in, o);
	return (int64_t)*iid;
}

int prof_pf_event(struct prof_pf *s, const struct ltt_event *ev, struct pb *in, struct pb *body)
{
	uint64_t frames[PROF_MAX_DEPTH];
	struct prof_sample smp;
	struct prof_thread *t;
	int64_t cs;
	size_t o;
	int ret;

	if (ev->type->builtin || strcmp(ev->type->facility, "core"))
		return 0;
	if (prof_is_core(ev, "mapping")) {
		prof_model_event(&s->m, ev);
		add_map(s, ev);
		return 0;
	}
	if (!prof_is_core(ev, "stack_sample"))
		return 0;
	ret = prof_model_sample(&s->m, ev, &t, &smp);
	if (ret <= 0)
		return ret == -ENOMEM ? ret : 1;	/* not decodable: left out (counted in m.unknown) */
	for (unsigned i = 0; i < t->stack.depth; i++) {
		int64_t fr = frame_of(s, t->stack.ips[i], i + 1 == t->stack.depth, in);

		if (fr <= 0) {
			if (fr < 0)
				return (int)fr;
			s->left_out++;
			return 1;
		}
		frames[i] = (uint64_t)fr;
	}
	cs = callstack_of(s, frames, t->stack.depth, in);
	if (cs <= 0) {
		if (cs < 0)
			return (int)cs;
		s->left_out++;
		return 1;
	}
	o = pb_begin(body, TP_PERF_SAMPLE);
	if (ev->tracefile->cpu >= 0)
		pb_uint(body, PS_CPU, (uint64_t)ev->tracefile->cpu);
	pb_uint(body, PS_PID, s->pid);
	pb_uint(body, PS_TID, smp.tid);
	pb_uint(body, PS_CALLSTACK_IID, (uint64_t)cs);
	pb_end(body, o);
	return 2;
}
