/* SPDX-License-Identifier: MIT */
/* The I/O model (toolkit/io_model.h): each process's fd table followed through the kernel's system
 * calls and named by the fd facility, each completed read or write charged to (process, thread, file,
 * operation). Field meanings: doc/format.md section 13 ("Events", "File descriptors"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"
#include "toolkit/io_model.h"
#include "toolkit/sched_decode.h"
#include "toolkit/thread_table.h"

/* What a system call does to fds, from its name on the trace's machine. */
enum io_class {
	K_NONE, K_READ, K_WRITE, K_READ_MSGS, K_WRITE_MSGS, K_OPEN, K_NEWFD, K_DUP, K_DUP2, K_FCNTL, K_CLOSE,
	K_UNKNOWN = 255
};

static const struct {
	const char *name;
	enum io_class k;
} io_calls[] = {
	{ "read", K_READ }, { "pread64", K_READ }, { "readv", K_READ }, { "preadv", K_READ },
	{ "preadv2", K_READ }, { "recvfrom", K_READ }, { "recvmsg", K_READ }, { "recvmmsg", K_READ_MSGS },
	{ "write", K_WRITE }, { "pwrite64", K_WRITE }, { "writev", K_WRITE }, { "pwritev", K_WRITE },
	{ "pwritev2", K_WRITE }, { "sendto", K_WRITE }, { "sendmsg", K_WRITE }, { "sendmmsg", K_WRITE_MSGS },
	{ "sendfile", K_WRITE },
	{ "open", K_OPEN }, { "openat", K_OPEN }, { "openat2", K_OPEN }, { "creat", K_OPEN },
	{ "socket", K_NEWFD }, { "accept", K_NEWFD }, { "accept4", K_NEWFD }, { "epoll_create", K_NEWFD },
	{ "epoll_create1", K_NEWFD }, { "eventfd", K_NEWFD }, { "eventfd2", K_NEWFD }, { "memfd_create", K_NEWFD },
	{ "timerfd_create", K_NEWFD }, { "signalfd", K_NEWFD }, { "signalfd4", K_NEWFD },
	{ "inotify_init", K_NEWFD }, { "inotify_init1", K_NEWFD }, { "pidfd_open", K_NEWFD },
	{ "fanotify_init", K_NEWFD }, { "userfaultfd", K_NEWFD }, { "perf_event_open", K_NEWFD },
	{ "open_by_handle_at", K_NEWFD }, { "bpf", K_NONE },
	{ "dup", K_DUP }, { "dup2", K_DUP2 }, { "dup3", K_DUP2 }, { "fcntl", K_FCNTL }, { "close", K_CLOSE },
};

const char *io_op_name(enum io_op op)
{
	return op == IO_READ ? "read" : "write";
}

/* ---- tables ------------------------------------------------------------------------------------ */

struct io_handle {
	char *name;	/* NULL: not named yet ("fd N") */
	int from_link;	/* the name is the kernel's link (fd.path, fd.state), not the program's */
};

struct fd_key {
	unsigned trace;
	uint32_t pid;
	int32_t fd;
};
static inline uint64_t fd_hash(struct fd_key k)
{
	return ltt_hash64((uint64_t)k.trace << 56 ^ (uint64_t)k.pid << 24 ^ (uint32_t)k.fd);
}
static inline int fd_eq(struct fd_key a, struct fd_key b)
{
	return a.trace == b.trace && a.pid == b.pid && a.fd == b.fd;
}
LTT_MAP_DEFINE(fdmap, struct fd_key, uint64_t, fd_hash, fd_eq)	/* -> handle index + 1; 0: closed */

struct io_pend {
	int open;		/* an entry is pending */
	uint32_t nr;
	uint64_t args[6];
	uint64_t entry_ns;
	char *path;		/* fd.open's name for this entry (owned) */
	int32_t dirfd;
};
LTT_MAP_DEFINE(pendmap, struct tt_key, struct io_pend, tt_key_hash, tt_key_eq)

struct row_key {
	unsigned trace;
	uint32_t pid, tid;
	const char *file;	/* interned: compared by pointer */
	enum io_op op;
};
static inline uint64_t row_hash(struct row_key k)
{
	return ltt_hash64((uint64_t)k.trace << 40 ^ (uint64_t)k.pid << 20 ^ k.tid ^ ltt_hash_ptr(k.file) ^ k.op);
}
static inline int row_eq(struct row_key a, struct row_key b)
{
	return a.trace == b.trace && a.pid == b.pid && a.tid == b.tid && a.file == b.file && a.op == b.op;
}
LTT_MAP_DEFINE(rowmap, struct row_key, size_t, row_hash, row_eq)
LTT_MAP_DEFINE(strset, const char *, char *, ltt_hash_str, ltt_eq_str)

enum io_ev { E_NONE, E_ENTRY, E_EXIT, E_WHOLE, E_STATE, E_PATH, E_OPEN };

struct io_model {
	struct io_hooks hooks;
	int keep;
	struct fdmap fds;
	struct pendmap pend;
	struct rowmap rowix;
	struct strset names;
	struct io_handle *h;
	size_t nh, caph;
	struct io_row **rows;
	size_t nrows, caprows;
	uint8_t *cls;		/* [trace * 1024 + nr]: enum io_class, K_UNKNOWN not yet looked up */
	unsigned ncls;
	uint64_t cut;
	int named;
	struct fd_key last_open;	/* the fd the last open-like exit made, and its handle */
	uint64_t last_handle;
};

static int ev_kind(const struct ltt_event_type *ty)
{
	if (!ty || ty->builtin || !ty->facility || !ty->name)
		return E_NONE;
	if (!strcmp(ty->facility, "kernel"))
		return !strcmp(ty->name, "syscall_entry") ? E_ENTRY : !strcmp(ty->name, "syscall_exit") ? E_EXIT
			: !strcmp(ty->name, "syscall") ? E_WHOLE : E_NONE;
	if (!strcmp(ty->facility, "fd"))
		return !strcmp(ty->name, "state") ? E_STATE : !strcmp(ty->name, "path") ? E_PATH
			: !strcmp(ty->name, "open") ? E_OPEN : E_NONE;
	return E_NONE;
}

int io_model_wants(const struct ltt_event_type *type)
{
	return ev_kind(type) != E_NONE;
}

int io_model_new(struct io_model **out, const struct io_hooks *hooks, int keep_rows)
{
	struct io_model *m = calloc(1, sizeof(*m));

	*out = m;
	if (!m)
		return -ENOMEM;
	if (hooks)
		m->hooks = *hooks;
	m->keep = keep_rows;
	return 0;
}

void io_model_free(struct io_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->pend.size; i++)
		if (m->pend.slot[i].used)
			free(m->pend.slot[i].val.path);
	for (size_t i = 0; i < m->names.size; i++)
		if (m->names.slot[i].used)
			free(m->names.slot[i].val);
	for (size_t i = 0; i < m->nrows; i++) {
		free(m->rows[i]->dur);
		free(m->rows[i]);
	}
	free(m->rows);
	free(m->h);
	free(m->cls);
	fdmap_free(&m->fds);
	pendmap_free(&m->pend);
	rowmap_free(&m->rowix);
	strset_free(&m->names);
	free(m);
}

/* The interned copy of s (valid until the model is freed), NULL when out of memory. */
static const char *intern(struct io_model *m, const char *s)
{
	char **v = strset_find(&m->names, s), *copy;

	if (v)
		return *v;
	if (!(copy = strdup(s)))
		return NULL;
	if (!(v = strset_put(&m->names, copy, NULL))) {
		free(copy);
		return NULL;
	}
	*v = copy;
	return copy;
}

static enum io_class classify(struct io_model *m, const struct ltt_event *ev, uint32_t nr)
{
	unsigned t = ev->trace->index;
	const char *name;
	enum io_class k = K_NONE;

	if (nr >= 1024)
		return K_NONE;
	if (t >= m->ncls) {
		unsigned n = t + 1;
		uint8_t *c = realloc(m->cls, (size_t)n * 1024);

		if (!c)
			return K_NONE;
		memset(c + (size_t)m->ncls * 1024, K_UNKNOWN, (size_t)(n - m->ncls) * 1024);
		m->cls = c;
		m->ncls = n;
	}
	if (m->cls[(size_t)t * 1024 + nr] != K_UNKNOWN)
		return m->cls[(size_t)t * 1024 + nr];
	name = sched_syscall_name(ev->trace, nr);
	for (size_t i = 0; name && i < sizeof(io_calls) / sizeof(io_calls[0]); i++)
		if (!strcmp(name, io_calls[i].name)) {
			k = io_calls[i].k;
			break;
		}
	m->cls[(size_t)t * 1024 + nr] = (uint8_t)k;
	return k;
}

/* ---- the fd table ------------------------------------------------------------------------------- */

/* A new handle named name (NULL: none yet): its index + 1, 0 when out of memory. */
static uint64_t handle_new(struct io_model *m, const char *name, int from_link)
{
	struct io_handle *h;

	if (LTT_GROW(m->h, m->nh + 1, m->caph))
		return 0;
	h = &m->h[m->nh];
	h->name = NULL;
	h->from_link = from_link;
	if (name && !(h->name = (char *)intern(m, name)))
		return 0;
	return ++m->nh;
}

static uint64_t *fd_slot(struct io_model *m, unsigned trace, uint32_t pid, int64_t fd, int create)
{
	struct fd_key k = { trace, pid, (int32_t)fd };

	if (fd < 0 || fd > INT32_MAX)
		return NULL;
	return create ? fdmap_put(&m->fds, k, NULL) : fdmap_find(&m->fds, k);
}

static const char *basename_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* fd.path: the kernel's link of pid's fd, read after the call that made it (open) or at a use. */
static int on_path(struct io_model *m, unsigned trace, uint32_t pid, int64_t fd, int use, const char *path)
{
	uint64_t *s = fd_slot(m, trace, pid, fd, 1);
	struct io_handle *h;

	if (!s)
		return fd < 0 || fd > INT32_MAX ? 0 : -ENOMEM;
	if (!*s || (!use && !(*s == m->last_handle && fd_eq(m->last_open, (struct fd_key){ trace, pid, (int32_t)fd }))))
		/* an fd not known, or made by a call other than the last open-like exit (a pipe's, a
		 * socketpair's): a new open file */
		return (*s = handle_new(m, path, 1)) ? 0 : -ENOMEM;
	h = &m->h[*s - 1];
	if (use && h->name)
		return 0;	/* known from its open or a dup: the reading came later, maybe of a reuse */
	/* an open's own reading: the kernel's absolute name, unless the program's differs (the fd was
	 * closed and made again before libltt read the link) */
	if (h->name && !h->from_link && strcmp(basename_of(h->name), basename_of(path)))
		return 0;
	if (!(h->name = (char *)intern(m, path)))
		return -ENOMEM;
	h->from_link = 1;
	return 0;
}

/* ---- events ------------------------------------------------------------------------------------- */

static uint64_t fu(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;

	return ltt_value_field(body, name, &v) ? 0 : ltt_value_uint(&v);
}

static int64_t fi(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;

	return ltt_value_field(body, name, &v) ? 0 : ltt_value_int(&v);
}

static const char *fs(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;
	const char *s;

	if (ltt_value_field(body, name, &v))
		return "";
	s = ltt_value_string(&v, NULL);
	return s ? s : "";
}

static uint32_t pid_of(struct sched_model *sm, unsigned trace, uint32_t tid)
{
	struct sched_thread *t = sm ? sched_model_thread(sm, trace, tid) : NULL;

	return t && t->pid != SCHED_TID_NONE ? t->pid : tid;	/* a task is its own process unless told */
}

static int charge(struct io_model *m, const struct io_call *c)
{
	struct row_key k = { c->trace, c->pid, c->tid, c->file, c->op };
	struct io_row *r;
	size_t *ix;
	int added;

	if (m->hooks.call) {
		int rc = m->hooks.call(m->hooks.arg, c);

		if (rc)
			return rc;
	}
	if (!m->keep)
		return 0;
	if (!(ix = rowmap_put(&m->rowix, k, &added)))
		return -ENOMEM;
	if (added) {
		if (LTT_GROW(m->rows, m->nrows + 1, m->caprows) || !(r = calloc(1, sizeof(*r)))) {
			/* the index points at a row that does not exist: keep it consistent */
			return -ENOMEM;
		}
		r->trace = c->trace;
		r->pid = c->pid;
		r->tid = c->tid;
		r->file = c->file;
		r->op = c->op;
		*ix = m->nrows;
		m->rows[m->nrows++] = r;
	}
	r = m->rows[*ix];
	r->calls++;
	r->bytes += c->bytes;
	r->errors += c->ret < 0;
	if (LTT_GROW(r->dur, r->ndur + 1, r->capdur))
		return -ENOMEM;
	r->dur[r->ndur++] = c->exit_ns - c->entry_ns;
	return 0;
}

static int on_exit_call(struct io_model *m, struct sched_model *sm, const struct ltt_event *ev, uint32_t tid,
			uint32_t nr, int64_t ret)
{
	unsigned trace = ev->trace->index;
	struct tt_key tk = { trace, tid };
	struct io_pend *p = pendmap_find(&m->pend, tk);
	enum io_class k = classify(m, ev, nr);
	uint32_t pid = pid_of(sm, trace, tid);
	uint64_t *s, *o, hix;
	char fdname[32];
	int rc = 0;

	if (k == K_NONE)
		goto done;
	if (!p || !p->open || p->nr != nr) {
		if (k == K_READ || k == K_WRITE || k == K_READ_MSGS || k == K_WRITE_MSGS)
			m->cut++;	/* its entry is not in the trace (lost, or before the window) */
		goto done;
	}
	switch (k) {
	case K_OPEN:
	case K_NEWFD:
		if (ret < 0 || !(s = fd_slot(m, trace, pid, ret, 1)))
			break;
		if (!(*s = handle_new(m, k == K_OPEN && p->path && p->path[0] ? p->path : NULL, 0)))
			rc = -ENOMEM;
		m->last_open = (struct fd_key){ trace, pid, (int32_t)ret };
		m->last_handle = *s;
		break;
	case K_DUP:
	case K_DUP2:
	case K_FCNTL:
		if (ret < 0)
			break;
		if (k == K_FCNTL && p->args[1] != 0 && p->args[1] != 1030)	/* F_DUPFD, F_DUPFD_CLOEXEC */
			break;
		o = fd_slot(m, trace, pid, (int64_t)p->args[0], 0);
		hix = o ? *o : 0;
		if (!(s = fd_slot(m, trace, pid, k == K_DUP2 ? (int64_t)p->args[1] : ret, 1)))
			break;
		if (!hix && !(hix = handle_new(m, NULL, 0)))	/* the copy of an fd never named */
			rc = -ENOMEM;
		*s = hix;
		break;
	case K_CLOSE:
		if (ret != -EBADF && (s = fd_slot(m, trace, pid, (int64_t)p->args[0], 0)))
			*s = 0;	/* released even when close fails otherwise (Linux) */
		break;
	default: {
		struct io_call c = { trace, pid, tid, (int32_t)p->args[0], 0, NULL,
				     k == K_READ || k == K_READ_MSGS ? IO_READ : IO_WRITE, nr, p->entry_ns,
				     ev->time_ns, ret, 0 };

		if (!(s = fd_slot(m, trace, pid, (int64_t)p->args[0], 1)))
			break;
		if (!*s && !(*s = handle_new(m, NULL, 0))) {
			rc = -ENOMEM;
			break;
		}
		c.handle = *s;
		if (m->h[*s - 1].name) {
			c.file = m->h[*s - 1].name;
		} else {
			snprintf(fdname, sizeof(fdname), "fd %d", c.fd);
			if (!(c.file = intern(m, fdname))) {
				rc = -ENOMEM;
				break;
			}
		}
		c.bytes = ret > 0 && (k == K_READ || k == K_WRITE) ? (uint64_t)ret : 0;
		rc = charge(m, &c);
		break;
	}
	}
done:
	if (p) {
		p->open = 0;
		free(p->path);
		p->path = NULL;
	}
	return rc;
}

int io_model_event(struct io_model *m, struct sched_model *sm, const struct ltt_event *ev, int kernel_loss)
{
	struct ltt_value body, v;
	unsigned trace = ev->trace->index;
	int kind;

	if (kernel_loss) {
		/* the entries pending on this trace may have lost their exit: they are dropped at their
		 * thread's next entry or exit (not matched across the gap) */
		for (size_t i = 0; i < m->pend.size; i++)
			if (m->pend.slot[i].used && m->pend.slot[i].key.trace == trace && m->pend.slot[i].val.open) {
				enum io_class k = classify(m, ev, m->pend.slot[i].val.nr);

				m->pend.slot[i].val.open = 0;
				m->cut += k == K_READ || k == K_WRITE || k == K_READ_MSGS || k == K_WRITE_MSGS;
			}
		return 0;
	}
	kind = ev_kind(ev->type);
	if (kind == E_NONE || ltt_event_body(ev, &body))
		return 0;
	switch (kind) {
	case E_ENTRY:
	case E_WHOLE: {	/* a whole call (kernel.syscall, doc/format.md section 13): its entry, then its exit */
		struct tt_key tk = { trace, (uint32_t)fu(&body, "tid") };
		struct io_pend *p = pendmap_put(&m->pend, tk, NULL);

		if (!p)
			return -ENOMEM;
		p->open = 1;
		p->nr = (uint32_t)fu(&body, "syscall_id");
		p->entry_ns = ev->time_ns;
		if (kind == E_WHOLE) {
			uint64_t cyc = fu(&body, "cycles"), cps = ev->trace->cycles_per_second;
			uint64_t dur = cps ? (uint64_t)((unsigned __int128)cyc * 1000000000u / cps) : cyc;

			p->entry_ns = ev->time_ns > dur ? ev->time_ns - dur : 0;
		}
		free(p->path);
		p->path = NULL;
		memset(p->args, 0, sizeof(p->args));
		if (!ltt_value_field(&body, "args", &v))
			for (unsigned i = 0; i < 6; i++) {
				struct ltt_value e;

				if (!ltt_value_element(&v, i, &e))
					p->args[i] = ltt_value_uint(&e);
			}
		if (kind == E_WHOLE)
			return on_exit_call(m, sm, ev, tk.tid, p->nr, fi(&body, "ret"));
		return 0;
	}
	case E_EXIT:
		return on_exit_call(m, sm, ev, (uint32_t)fu(&body, "tid"), (uint32_t)fu(&body, "syscall_id"),
				    fi(&body, "ret"));
	case E_OPEN: {
		struct tt_key tk = { trace, (uint32_t)fu(&body, "tid") };
		struct io_pend *p = pendmap_find(&m->pend, tk);

		m->named = 1;
		if (p && p->open) {
			free(p->path);
			if (!(p->path = strdup(fs(&body, "path"))))
				return -ENOMEM;
			p->dirfd = (int32_t)fi(&body, "dirfd");
		}
		return 0;
	}
	case E_STATE:
	case E_PATH:
		m->named = 1;
		return on_path(m, trace, (uint32_t)fu(&body, "pid"), (int64_t)(int32_t)fu(&body, "fd"),
			       kind == E_PATH && !strcmp(ltt_value_field(&body, "how", &v) ? "" :
						       (ltt_value_enum_label(&v) ? ltt_value_enum_label(&v) : ""), "use"),
			       fs(&body, "path"));
	default:
		return 0;
	}
}

static int row_cmp(const void *a, const void *b)
{
	const struct io_row *x = *(struct io_row *const *)a, *y = *(struct io_row *const *)b;
	int c;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if ((c = strcmp(x->file, y->file)))
		return c;
	return (int)x->op - (int)y->op;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int io_model_finish(struct io_model *m)
{
	qsort(m->rows, m->nrows, sizeof(*m->rows), row_cmp);
	for (size_t i = 0; i < m->nrows; i++)
		qsort(m->rows[i]->dur, m->rows[i]->ndur, sizeof(uint64_t), u64_cmp);
	return 0;
}

size_t io_model_rows(const struct io_model *m, struct io_row ***out)
{
	*out = m->rows;
	return m->nrows;
}

uint64_t io_model_cut(const struct io_model *m)
{
	return m->cut;
}

int io_model_named(const struct io_model *m)
{
	return m->named;
}
