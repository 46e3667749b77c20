/* SPDX-License-Identifier: MIT */
/* The trace set: opening traces (directories or packed archives), and the merged iteration of all
 * their tracefiles in time order (doc/format.md section 5, "Merge order"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/heap.h"
#include "reader/archive.h"
#include "reader_internal.h"

void rd_trace_free(struct trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ntf; i++)
		rd_tracefile_close(t->tf[i]);
	free(t->tf);
	rd_facilities_free(t);
	rd_bookmarks_free(t);
	rd_system_free(t);
	if (t->archive_dir)
		ltt_archive_remove_private(t->archive_dir);
	else
		free(t->dir);
	free(t->path);
	free(t);
}

/* Opens the trace at path as r->traces[index] (room made by the caller); name: the path reported
 * (ltt_trace_info.path, problems), NULL for path itself. */
int rd_trace_open(struct ltt_reader *r, const char *path, const char *name, unsigned index, char *err,
		  size_t errlen)
{
	struct trace *t = calloc(1, sizeof(*t));
	struct stat st;
	int ret;

	if (!t)
		return -ENOMEM;
	r->traces[r->ntraces++] = t;
	t->reader = r;
	t->info.index = index;
	t->path = strdup(name ? name : path);
	if (!t->path)
		return -ENOMEM;
	t->info.path = t->path;
	if (stat(path, &st) < 0) {
		ret = -errno;
		rd_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISDIR(st.st_mode) && ltt_archive_is_packed(path) == 1) {
		t->final = 1;	/* an archive does not grow: followed, it is read to its end */
		char aerr[512];

		ret = ltt_archive_unpack_private(path, &t->archive_dir, aerr, sizeof(aerr));
		if (ret) {
			rd_seterr(err, errlen, "%s", aerr);
			return ret;
		}
		t->dir = t->archive_dir;
	} else if (!S_ISDIR(st.st_mode)) {
		rd_seterr(err, errlen, "%s: not a trace directory or a packed trace", path);
		return -ENOTDIR;
	} else {
		t->dir = strdup(path);
		if (!t->dir)
			return -ENOMEM;
	}
	t->info.dir = t->dir;
	if (!(r->opt.flags & LTT_READ_FOLLOW))
		t->final = 1;
	ret = rd_system_load(t, err, errlen);
	if (!ret)
		ret = rd_tracefiles_open(t, err, errlen);
	if (!ret)
		ret = rd_facilities_load(t, err, errlen);
	if (!ret && (ret = rd_bookmarks_load(t)))
		rd_seterr(err, errlen, "%s/info/bookmarks.xml: %s", path,
			  ret == -ENOMEM ? "out of memory" : strerror(-ret));
	return ret;
}

int ltt_reader_open(struct ltt_reader **out, const char *const *paths, unsigned npaths,
		    const struct ltt_reader_options *opt, char *err, size_t errlen)
{
	struct ltt_reader *r;
	size_t ntf = 0;
	unsigned rank = 0;
	int ret = 0;

	*out = NULL;
	if (!npaths && !(opt && (opt->flags & LTT_READ_FOLLOW))) {
		rd_seterr(err, errlen, "no trace given");
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->traces = calloc(npaths + 1, sizeof(*r->traces)))) {
		free(r);
		rd_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (opt)
		r->opt = *opt;
	r->follow = !!(r->opt.flags & LTT_READ_FOLLOW);
	r->cap_traces = npaths + 1;
	r->to_ns = UINT64_MAX;
	for (unsigned i = 0; i < npaths && !ret; i++)
		ret = rd_trace_open(r, paths[i], NULL, i, err, errlen);
	for (size_t i = 0; i < r->ntraces && !ret; i++)
		ntf += r->traces[i]->ntf;
	r->cap_tf = ntf + 1;
	if (!ret && (!(r->all_tf = calloc(ntf + 1, sizeof(*r->all_tf))) ||
		     !(r->heap = calloc(ntf + 1, sizeof(*r->heap))))) {
		rd_seterr(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	if (ret) {
		if (ret == -ENOMEM && err && !*err)
			rd_seterr(err, errlen, "out of memory");
		ltt_reader_close(r);
		return ret;
	}
	for (size_t i = 0; i < r->ntraces; i++)
		for (size_t k = 0; k < r->traces[i]->ntf; k++) {
			struct tracefile *tf = r->traces[i]->tf[k];

			if (r->follow) {
				rd_follow_add_tf(r, tf);	/* room made above */
				continue;
			}
			tf->rank = rank++;
			r->all_tf[r->nall_tf++] = tf;
		}
	if (r->opt.flags & LTT_READ_BUILTIN)
		for (size_t i = 0; i < r->ntraces; i++)
			for (size_t id = 0; id < r->traces[i]->nplan; id++)
				r->traces[i]->plan[id].hidden = 0;
	rd_dedupe_build(r);
	*out = r;
	return 0;
}

void ltt_reader_close(struct ltt_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ntraces; i++)
		rd_trace_free(r->traces[i]);
	free(r->traces);
	rd_dedupe_free(r);
	free(r->all_tf);
	free(r->heap);
	free(r->live);
	free(r);
}

void ltt_reader_close_files(struct ltt_reader *r)
{
	for (size_t i = 0; i < r->ntraces; i++)
		for (size_t k = 0; k < r->traces[i]->ntf; k++) {
			struct tracefile *tf = r->traces[i]->tf[k];

			if (tf->fd >= 0)
				close(tf->fd);
			tf->fd = -1;
		}
	r->files_closed = 1;
}

unsigned ltt_reader_ntraces(const struct ltt_reader *r)
{
	return (unsigned)r->ntraces;
}

const struct ltt_trace_info *ltt_reader_trace(const struct ltt_reader *r, unsigned i)
{
	return i < r->ntraces ? &r->traces[i]->info : NULL;
}

uint64_t ltt_reader_problems(const struct ltt_reader *r)
{
	return r->nproblems;
}

int ltt_reader_skip_tracefile(struct ltt_reader *r, const struct ltt_tracefile_info *info, int skip)
{
	if (r->follow ? ((struct tracefile *)info)->entered : r->started)
		return -EBUSY;
	((struct tracefile *)info)->skip = !!skip;
	return 0;
}

int ltt_reader_hide_event_type(struct ltt_reader *r, const struct ltt_event_type *type, int hide)
{
	if (r->started && !r->follow)
		return -EBUSY;
	for (size_t i = 0; i < r->ntraces; i++) {
		struct trace *t = r->traces[i];

		if (type->id < t->nplan && t->plan[type->id].type == type) {
			t->plan[type->id].hidden = !!hide;
			return 0;
		}
	}
	return -ENOENT;
}

int ltt_reader_set_time_range(struct ltt_reader *r, uint64_t from_ns, uint64_t to_ns)
{
	if (r->started)
		return -EBUSY;
	r->from_ns = from_ns;
	r->to_ns = to_ns;
	return 0;
}

int ltt_reader_time_bounds(struct ltt_reader *r, uint64_t *first_ns, uint64_t *last_ns)
{
	uint64_t lo = UINT64_MAX, hi = 0, ns;

	for (size_t i = 0; i < r->nall_tf; i++) {
		struct tracefile *tf = r->all_tf[i];

		for (uint64_t k = 0; k < tf->info.nblocks; k++)
			if (!rd_block_anchor_ns(tf, k, 1, &ns)) {
				lo = ns < lo ? ns : lo;
				break;
			}
		for (uint64_t k = tf->info.nblocks; k-- > 0; )
			if (!rd_block_anchor_ns(tf, k, 0, &ns)) {
				hi = ns > hi ? ns : hi;
				break;
			}
	}
	if (lo == UINT64_MAX)
		return -ENODATA;
	*first_ns = lo;
	*last_ns = hi;
	return 0;
}

/* ---- merge -------------------------------------------------------------------------------------- */

static inline int before(const struct tracefile *a, const struct tracefile *b)
{
	return a->key_ns < b->key_ns || (a->key_ns == b->key_ns && a->rank < b->rank);
}

LTT_HEAP_DEFINE(tf_heap, struct tracefile *, before)

void rd_heap_sift_down(struct tracefile **h, size_t n, size_t i)
{
	tf_heap_sift_down(h, n, i);
}

/* Makes tf's next event (at or after from_ns) current; 0 when it has none left. */
static inline int tf_ready(struct ltt_reader *r, struct tracefile *tf)
{
	while (rd_tracefile_fill(tf)) {
		const struct blk_event *e = &tf->ev[tf->pos];

		if (unlikely(e->ns < r->from_ns)) {
			tf->pos++;
			continue;
		}
		if (unlikely(e->ns > r->to_ns)) {
			tf->done = 1;
			tf->nev = tf->pos = 0;
			return 0;
		}
		tf->key_ns = e->ns;
		return 1;
	}
	return 0;
}

static void start(struct ltt_reader *r)
{
	r->started = 1;
	for (size_t i = 0; i < r->nall_tf; i++) {
		struct tracefile *tf = r->all_tf[i];

		if (tf->skip) {
			tf->done = 1;
			continue;
		}
		if (r->from_ns)
			rd_tracefile_seek(tf, r->from_ns);
		if (!(r->opt.flags & LTT_READ_UNORDERED) && tf_ready(r, tf))
			r->heap[r->nheap++] = tf;
	}
	tf_heap_make(r->heap, r->nheap);
}

int rd_tf_ready(struct ltt_reader *r, struct tracefile *tf)
{
	return tf_ready(r, tf);
}

/* Adds tf (its key_ns set) to the merge heap. */
void rd_heap_push(struct ltt_reader *r, struct tracefile *tf)
{
	tf_heap_push(r->heap, &r->nheap, tf);
	tf->inheap = 1;
}

void rd_heap_pop(struct ltt_reader *r)
{
	tf_heap_pop(r->heap, &r->nheap);
}

int ltt_reader_next(struct ltt_reader *r, struct ltt_event *ev)
{
	struct tracefile *tf;

	if (r->follow)
		return rd_follow_next(r, ev);
	if (unlikely(!r->started)) {
		if (r->files_closed)
			return -EBADF;
		start(r);
	}
	if (r->opt.flags & LTT_READ_UNORDERED) {
		tf = r->last;
		if (likely(tf != NULL) && likely(tf->pos + 1 < tf->nev) &&
		    likely(tf->ev[tf->pos + 1].ns <= r->to_ns)) {
			tf->pos++;
			rd_fill_event(tf, ev);
			return 1;
		}
		while (r->seq_tf < r->nall_tf) {
			tf = r->all_tf[r->seq_tf];
			if (r->last) {
				tf->pos++;
				r->last = NULL;
			}
			if (!tf->done && tf_ready(r, tf)) {
				rd_fill_event(tf, ev);
				r->last = tf;
				return 1;
			}
			r->seq_tf++;
		}
		return 0;
	}
	/* The event yielded last stays valid until now: advance its tracefile only here. */
	if (r->last) {
		tf = r->last;
		r->last = NULL;
		tf->pos++;
		if (likely(tf->pos < tf->nev) && likely(tf->ev[tf->pos].ns <= r->to_ns)) {
			tf->key_ns = tf->ev[tf->pos].ns;
			tf_heap_sift_down(r->heap, r->nheap, 0);
		} else if (tf_ready(r, tf)) {
			tf_heap_sift_down(r->heap, r->nheap, 0);
		} else {
			tf_heap_pop(r->heap, &r->nheap);
		}
	}
	if (!r->nheap)
		return 0;
	tf = r->heap[0];
	rd_fill_event(tf, ev);
	r->last = tf;
	return 1;
}
