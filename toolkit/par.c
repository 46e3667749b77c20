/* SPDX-License-Identifier: MIT */
/* Parallel formatting of a trace set's events (par.h): one reader here, forked formatting workers,
 * output in event order (doc/performance.md "Reading in parallel").
 *
 * Batch b (up to BATCH_EVENTS events, their payloads copied) goes to worker b % W, in slot
 * (b / W) % 2 of that worker's two slots of shared memory (this process fills one while the worker
 * formats the other). Pipes: cmd[w] (here -> worker: "slot s is ready", 0xff: no more), freed[w]
 * (worker -> here: "slot s may be refilled", sent as soon as it is formatted), token[w] (to worker w:
 * "your batch is next"). A worker formats its batch into its dump_out buffer (whatever does not fit is
 * flushed, in order, into a memfd), then waits for the token, writes the memfd's bytes and the buffer
 * to the output, and passes the token to worker (w + 1) % W: batch order is output order. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toolkit/par.h"

#define BATCH_EVENTS	1024	/* their text fits the worker's output buffer: no copy but the write */
#define PAYLOAD_MIN	(4u << 20)
#define END_CMD		0xff
#define MIN_BYTES	(8u << 20)	/* smaller trace sets: the single-thread path */

struct par_ev {
	const struct ltt_event_type *type;
	const struct ltt_trace_info *trace;
	const struct ltt_tracefile_info *tracefile;
	uint64_t cycles, time_ns, offset;
	uint64_t pay;		/* offset of the payload in the slot's payload area */
	uint32_t size;
	uint16_t id;
	uint8_t big_endian, arch, v1_time;
};

struct slot {
	uint32_t n;
	uint64_t bytes;		/* of the payload area used */
	struct par_ev ev[BATCH_EVENTS];
};

struct par {
	const struct par_opts *o;
	unsigned w;
	size_t slot_size;	/* struct slot + payload area, page aligned */
	uint64_t payload_cap;
	char *mem;		/* W * 2 slots */
	int (*cmd)[2], (*freed)[2], (*token)[2];
	pid_t *pid;
};

unsigned par_default_workers(struct ltt_reader *r, unsigned threads)
{
	uint64_t bytes = 0;
	long n;

	if (threads)
		return threads;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++)
			bytes += t->tracefiles[k]->file_size;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (bytes < MIN_BYTES || n < 2)
		return 1;
	return n > 16 ? 16 : (unsigned)n;
}

unsigned par_default_format_workers(struct ltt_reader *r, unsigned threads)
{
	unsigned n;

	if (threads)
		return threads;
	/* This process reads and merges on a CPU of its own: the others format. Fewer than 2 workers do
	 * not pay: on 2 CPUs 2 workers made ltt dump 0.93-0.94x the single-thread rate (bench perf-read
	 * rows, 10 M events, quiet machine), the copying to and from the workers outweighing the
	 * second CPU. */
	n = par_default_workers(r, 0);
	return n >= 3 ? n - 1 : 1;
}

static struct slot *slot_at(const struct par *p, unsigned w, unsigned s)
{
	return (struct slot *)(void *)(p->mem + (2 * (size_t)w + s) * p->slot_size);
}

static char *payload_of(struct slot *s)
{
	return (char *)(s + 1);
}

static int read_byte(int fd, unsigned char *c)
{
	for (;;) {
		ssize_t n = read(fd, c, 1);

		if (n == 1)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : -EPIPE;
	}
}

static int write_byte(int fd, unsigned char c)
{
	for (;;) {
		ssize_t n = write(fd, &c, 1);

		if (n == 1)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : -EIO;
	}
}

/* Copies the first len bytes of fd (the worker's memfd) to out through buf (COPY_BUF bytes). */
#define COPY_BUF (64 * 1024)
static int copy_out(char *buf, int fd, int out, uint64_t len)
{
	uint64_t off = 0;

	while (off < len) {
		ssize_t n = pread(fd, buf, len - off < COPY_BUF ? (size_t)(len - off) : COPY_BUF, (off_t)off), w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		for (ssize_t done = 0; done < n; done += w) {
			w = write(out, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				return w < 0 ? -errno : -EIO;
		}
		off += (uint64_t)n;
	}
	return 0;
}

/* The worker process w: never returns. Exit status 0; EXIT_EPIPE when the output was closed; 1 for
 * another error, left unreported (the parent sees the status). */
#define EXIT_EPIPE 2
static void worker(struct par *p, unsigned w)
{
	const struct par_opts *o = p->o;
	struct dump_out *out = malloc(sizeof(*out));
	char *buf = malloc(COPY_BUF);
	int mfd = memfd_create("ltt-par", MFD_CLOEXEC), rc = 0, epipe = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN };
	unsigned char c;

	/* EPIPE instead: the next worker may have ended (no batch left) when we pass it the token,
	 * and a closed output is told to the parent by the exit status */
	sigaction(SIGPIPE, &ign, NULL);

	for (unsigned i = 0; i < p->w; i++) {
		close(p->cmd[i][1]);
		close(p->freed[i][0]);
		if (i != w)
			close(p->cmd[i][0]), close(p->freed[i][1]), close(p->token[i][0]);
		if (i != (w + 1) % p->w)
			close(p->token[i][1]);
	}
	if (!out || !buf || mfd < 0)
		_exit(1);
	out->fd = mfd;
	out->error = 0;
	out->len = 0;
	while (!rc && !(rc = read_byte(p->cmd[w][0], &c)) && c != END_CMD) {
		struct slot *s = slot_at(p, w, c);
		uint64_t len;

		for (uint32_t i = 0; i < s->n && !rc; i++) {
			const struct par_ev *e = &s->ev[i];
			struct ltt_event ev = {
				.type = e->type, .trace = e->trace, .tracefile = e->tracefile,
				.cycles = e->cycles, .time_ns = e->time_ns, .offset = e->offset,
				.payload = (const unsigned char *)payload_of(s) + e->pay, .size = e->size,
				.id = e->id, .big_endian = e->big_endian, .arch = e->arch, .v1_time = e->v1_time,
			};

			rc = o->event(o->arg, out, &ev);
		}
		len = (uint64_t)lseek(mfd, 0, SEEK_CUR);	/* flushed in the batch: its first bytes */
		if (!rc)
			rc = out->error;
		if (!rc)
			rc = write_byte(p->freed[w][1], c);
		if (!rc)
			rc = read_byte(p->token[w][0], &c);
		if (!rc && len)
			rc = copy_out(buf, mfd, o->out_fd, len);
		if (!rc) {
			out->fd = o->out_fd;
			rc = dump_out_flush(out);
			out->fd = mfd;
		}
		epipe = rc == -EPIPE;
		if (!rc && len && lseek(mfd, 0, SEEK_SET) < 0)	/* its pages are used again */
			rc = -errno;
		if (!rc)	/* fails only when that worker has ended: it had no batch left */
			(void)write_byte(p->token[(w + 1) % p->w][1], 't');
	}
	_exit(!rc ? 0 : epipe ? EXIT_EPIPE : 1);
}

static void close_pair(int fd[2])
{
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	fd[0] = fd[1] = -1;
}

static int setup(struct par *p, struct ltt_reader *r)
{
	uint64_t bs = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		bs = t->block_size > bs ? t->block_size : bs;
	}
	p->payload_cap = bs > PAYLOAD_MIN ? bs : PAYLOAD_MIN;
	p->slot_size = (sizeof(struct slot) + p->payload_cap + 4095) & ~(size_t)4095;
	p->cmd = calloc(p->w, sizeof(*p->cmd));
	p->freed = calloc(p->w, sizeof(*p->freed));
	p->token = calloc(p->w, sizeof(*p->token));
	p->pid = calloc(p->w, sizeof(*p->pid));
	if (!p->cmd || !p->freed || !p->token || !p->pid)
		return -ENOMEM;
	for (unsigned i = 0; i < p->w; i++) {
		p->cmd[i][0] = p->cmd[i][1] = p->freed[i][0] = p->freed[i][1] = -1;
		p->token[i][0] = p->token[i][1] = -1;
	}
	for (unsigned i = 0; i < p->w; i++)
		if (pipe2(p->cmd[i], O_CLOEXEC) || pipe2(p->freed[i], O_CLOEXEC) || pipe2(p->token[i], O_CLOEXEC))
			return -errno;
	p->mem = mmap(NULL, 2 * (size_t)p->w * p->slot_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p->mem == MAP_FAILED) {
		p->mem = NULL;
		return -errno;
	}
	return 0;
}

static void teardown(struct par *p)
{
	for (unsigned i = 0; p->cmd && i < p->w; i++) {
		close_pair(p->cmd[i]);
		close_pair(p->freed[i]);
		close_pair(p->token[i]);
	}
	if (p->mem)
		munmap(p->mem, 2 * (size_t)p->w * p->slot_size);
	free(p->cmd);
	free(p->freed);
	free(p->token);
	free(p->pid);
}

/* Waits for every worker; the first failure: -EPIPE when a worker found the output closed, -EIO for
 * another. */
static int reap(struct par *p, int *sigpipe)
{
	int rc = 0;

	for (unsigned i = 0; i < p->w; i++) {
		int st;

		if (p->pid[i] <= 0)
			continue;
		while (waitpid(p->pid[i], &st, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_EPIPE)
			*sigpipe = 1;
		else if ((!WIFEXITED(st) || WEXITSTATUS(st)) && !rc)
			rc = -EIO;
		p->pid[i] = 0;
	}
	return *sigpipe ? -EPIPE : rc;
}

int par_run(struct ltt_reader *r, const struct par_opts *o, uint64_t *nevents)
{
	struct par p = { .o = o, .w = o->workers };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	unsigned char busy[2 * 16] = { 0 }, c;
	uint64_t b = 0, n = 0;
	struct slot *s = NULL;
	unsigned sw = 0, ss = 0;
	int rc, rrc = 0, sigpipe = 0;
	struct ltt_event ev;

	*nevents = 0;
	if (p.w < 2 || p.w > 16)
		return -EINVAL;
	rc = setup(&p, r);
	if (rc) {
		teardown(&p);
		return rc;
	}
	for (unsigned i = 0; i < p.w; i++) {
		p.pid[i] = fork();
		if (p.pid[i] == 0)
			worker(&p, i);
		if (p.pid[i] < 0) {
			rc = -errno;
			break;
		}
	}
	/* here: cmd write ends, freed read ends; the first token, then no token pipe */
	for (unsigned i = 0; i < p.w; i++) {
		close(p.cmd[i][0]);
		close(p.freed[i][1]);
		close(p.token[i][0]);
		p.cmd[i][0] = p.freed[i][1] = p.token[i][0] = -1;
	}
	/* a worker that died leaves its pipes without reader: EPIPE, not a signal */
	sigaction(SIGPIPE, &ign, &old);
	if (!rc)
		rc = write_byte(p.token[0][1], 't');
	for (unsigned i = 0; i < p.w; i++)
		close_pair(p.token[i]);
	while (!rc && n < o->limit && (rrc = ltt_reader_next(r, &ev)) == 1) {
		if (s && (s->n == BATCH_EVENTS || s->bytes + ev.size > p.payload_cap)) {
			rc = write_byte(p.cmd[sw][1], (unsigned char)ss);
			s = NULL;
			b++;
		}
		if (rc)
			break;
		if (!s) {
			sw = (unsigned)(b % p.w);
			ss = (unsigned)((b / p.w) & 1);
			while (!rc && busy[2 * sw + ss]) {
				rc = read_byte(p.freed[sw][0], &c);
				if (!rc)
					busy[2 * sw + (c & 1)] = 0;
			}
			if (rc)
				break;
			busy[2 * sw + ss] = 1;
			s = slot_at(&p, sw, ss);
			s->n = 0;
			s->bytes = 0;
		}
		s->ev[s->n] = (struct par_ev){
			.type = ev.type, .trace = ev.trace, .tracefile = ev.tracefile,
			.cycles = ev.cycles, .time_ns = ev.time_ns, .offset = ev.offset,
			.pay = s->bytes, .size = ev.size, .id = ev.id,
			.big_endian = ev.big_endian, .arch = ev.arch, .v1_time = ev.v1_time,
		};
		if (ev.size)
			memcpy(payload_of(s) + s->bytes, ev.payload, ev.size);
		s->bytes += ev.size;
		s->n++;
		n++;
	}
	if (!rc && s)
		rc = write_byte(p.cmd[sw][1], (unsigned char)ss);
	for (unsigned i = 0; i < p.w; i++) {
		if (!rc)
			write_byte(p.cmd[i][1], END_CMD);
		close_pair(p.cmd[i]);
	}
	if (rc)	/* a worker failed: the others stop at their next pipe */
		for (unsigned i = 0; i < p.w; i++)
			if (p.pid[i] > 0)
				kill(p.pid[i], SIGTERM);
	{
		int rr = reap(&p, &sigpipe);

		if (sigpipe)
			rc = -EPIPE;
		else if (!rc)
			rc = rr;
	}
	sigaction(SIGPIPE, &old, NULL);
	teardown(&p);
	*nevents = n;
	if (rrc < 0 && !rc)
		rc = rrc;
	return rc;
}
