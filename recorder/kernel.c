/* SPDX-License-Identifier: MIT */
/* recorder/kernel.c: kernel events (doc/recorder.md "Kernel events"): the kernel facility
 * (eventdefs/kernel.xml), perf events opened per CPU (for the traced process's threads, inherited by
 * the threads they create, or for every process), what could not be opened and why, and the start and
 * stop of the drain thread (recorder/kernel_drain.c) that copies perf's records into kernel/N. */
#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/escape_xml.h"
#include "common/grow.h"
#include "common/io.h"
#include "fd_names.h"
#include "kernel_int.h"
#include "recorder.h"

static const char kernel_xml[] =
#include "ltt-kernel-xml.h"
	;

static const char *const kernel_names[LTT_K_NEVENTS] = {
	"syscall_entry", "syscall_exit", "trap_entry", "irq_entry", "irq_exit", "soft_irq", "schedchange",
	"thread_switch", "process", "state_process", "state_end", "recording", "missing", "run_delay", "syscall",
};
static uint8_t kernel_enabled[LTT_K_NEVENTS];

struct ltt_facility ltt_kernel_facility = {
	.name = "kernel",
	.xml = kernel_xml,
	.n_events = LTT_K_NEVENTS,
	.event_names = kernel_names,
	.enabled = kernel_enabled,
};

/* The strings eventdefs/kernel.xml feeds the checksum (doc/format.md section 8), in order. */
#define U8 "uint8_t"
#define U16 "uint16_t"
#define U32 "uint32_t"
#define U64 "uint64_t"
#define I32 "int32_t"
static const char *const kernel_strings[] = {
	"kernel",
	"syscall_entry", "struct", "tid", U32, "syscall_id", U32, "args", "array 6", U64,
	"syscall_exit", "struct", "tid", U32, "syscall_id", U32, "ret", "int64_t",
	"trap_entry", "struct", "tid", U32, "trap_id", U16, "address", U64, "ip", U64, "error_code", U64,
	"kernel", U8,
	"irq_entry", "struct", "tid", U32, "irq_id", U32, "name", "string",
	"irq_exit", "struct", "tid", U32, "irq_id", U32, "ret", U32,
	"soft_irq", "struct", "tid", U32, "event_sub_id", "enum " U8, "raise=1", "entry", "exit",
	"vec", "enum " U8, "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
	"schedchange", "struct", "tid", U32, "out", U32, "in", U32, "out_state", U32, "out_prio", I32,
	"in_prio", I32, "out_comm", "string", "in_comm", "string",
	"thread_switch", "struct", "tid", U32, "direction", "enum " U8, "in", "out", "preempted", U8,
	"process", "struct", "tid", U32, "event_sub_id", "enum " U8, "kthread=1", "fork", "exit", "wait",
	"signal", "wakeup", "exec", "migrate", "event_data1", U32, "event_data2", U32, "prio", I32,
	"name", "string",
	"state_process", "struct", "tid", U32, "pid", U32, "ppid", U32, "uid", U32, "state", U8,
	"prio", I32, "comm", "string",
	"state_end", "struct", "tid", U32, "threads", U32,
	"recording", "struct", "tid", U32, "asked", "string", "recorded", "string", "scope", "enum " U8,
	"process", "system", "clock", "string", "ring_bytes", U32, "drain_ms", U32,
	"missing", "struct", "tid", U32, "what", "string", "error", I32, "reason", "string",
	"run_delay", "struct", "tid", U32, "run_delay", U64, "timeslices", U64, "from_start", U8,
	"syscall", "struct", "tid", U32, "syscall_id", U16, "cycles", U32, "ret", "int64_t", "args", "sequence 0", U64,
};

struct ltt_kstate ltt_k;

/* ---- what could not be recorded ----------------------------------------------------------------- */

static int paranoid(void)
{
	char buf[32];

	if (ltt_read_into("/proc/sys/kernel/perf_event_paranoid", 0, buf, sizeof(buf)) <= 0)
		return 2;	/* the kernel's default */
	return atoi(buf);
}

/* Nonzero when the effective capabilities hold CAP_PERFMON (38) or CAP_SYS_ADMIN (21). */
static int perfmon_capable(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long eff = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> 38 & 1) || (eff >> 21 & 1);
}

int ltt_kernel_privileged(void)
{
	return perfmon_capable() || paranoid() < 0;
}

/* The reason perf_event_open refused with err, naming the setting or capability. */
static void perf_reason(int err, char *why, size_t n)
{
	if (err == EACCES || err == EPERM)
		snprintf(why, n, "perf_event_paranoid=%d and no CAP_PERFMON (perf_event_open: %s)", paranoid(),
			 strerror(err));
	else if (err == ENOENT || err == EINVAL || err == EOPNOTSUPP)
		snprintf(why, n, "this kernel does not offer it (perf_event_open: %s)", strerror(err));
	else
		snprintf(why, n, "perf_event_open: %s", strerror(err));
}

void ltt_kernel_missing(const char *what, int err, const char *reason)
{
	struct ltt_kmissing *m;

	for (unsigned i = 0; i < ltt_k.nmissing; i++)
		if (!strcmp(ltt_k.missing[i].what, what))
			return;
	if (ltt_k.nmissing >= LTT_KMISSING_MAX)
		return;
	m = &ltt_k.missing[ltt_k.nmissing++];
	snprintf(m->what, sizeof(m->what), "%s", what);
	snprintf(m->reason, sizeof(m->reason), "%s", reason);
	m->err = err;
}

/* ---- opening ------------------------------------------------------------------------------------ */

static void attr_base(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	a->sample_id_all = 1;
	a->disabled = 1;
	a->exclude_hv = 1;
	a->inherit = !ltt_k.system;
	a->inherit_thread = !ltt_k.system;	/* threads, not child processes */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ltt_k.ring_bytes / 4);
	if (!ltt_k.conv_tsc) {
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;	/* the trace's clock (recorder/clock.c) */
	}
}

/* The perf ring of CPU c: mmaps fd as its ring, halving the size while the kernel refuses it
 * (perf_event_mlock_kb, RLIMIT_MEMLOCK); every ring gets the size the first one got. */
static int ring_map(unsigned c, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ltt_kring *kr = &ltt_k.rings[c];

	for (;;) {
		void *m = mmap(NULL, page + ltt_k.ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (m != MAP_FAILED) {
			/* a forked child gets no copy of the ring: the kernel maps perf rings
			 * VM_DONTCOPY already; said here too, so that it holds whatever the kernel does.
			 * ltt_kernel_fork_child() closes the descriptors, which the child does inherit */
			madvise(m, page + ltt_k.ring_bytes, MADV_DONTFORK);
			kr->page = m;
			kr->data = (char *)m + page;
			kr->fd = fd;
			return 0;
		}
		if ((errno != EPERM && errno != ENOMEM) || ltt_k.ring_bytes <= 2 * page || ltt_k.ring_fixed)
			return -errno;
		ltt_k.ring_bytes /= 2;
	}
}

/* The last open_on() failed mapping the ring, not opening the event (the locked-memory limits). */
static int map_failed;

/* Why the ring could not be mapped (err: mmap's errno): the locked-memory limits, by name. */
static void map_reason(int err, char *why, size_t n)
{
	char kb[32];
	struct rlimit rl;
	size_t b = ltt_k.ring_bytes;
	const char *unit = b % (1u << 30) == 0 ? "G" : b % (1u << 20) == 0 ? "M" : "k";
	size_t shown = b / (*unit == 'G' ? 1u << 30 : *unit == 'M' ? 1u << 20 : 1u << 10);
	char lim[32];

	if (ltt_read_into("/proc/sys/kernel/perf_event_mlock_kb", 0, kb, sizeof(kb)) <= 0)
		snprintf(kb, sizeof(kb), "?");
	kb[strcspn(kb, "\n")] = 0;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "unlimited");
	else
		snprintf(lim, sizeof(lim), "%llu KiB", (unsigned long long)(rl.rlim_cur >> 10));
	snprintf(why, n, "perf's ring of %zu%s per CPU is more locked memory than allowed (perf_event_mlock_kb=%s "
		 "per CPU, then RLIMIT_MEMLOCK %s; mmap: %s): %s", shown, unit, kb, lim, strerror(err),
		 ltt_k.ring_fixed ? "give a smaller LTT_KERNEL_BUFFER, or none (the default halves the ring until "
				    "it fits)" : "even the smallest ring");
}

static int add_fd(int fd)
{
	if (LTT_GROW(ltt_k.fds, ltt_k.nfds + 1, ltt_k.cap_fds))
		return -ENOMEM;
	ltt_k.fds[ltt_k.nfds++] = fd;
	return 0;
}

/* Opens attr for pid on CPU c with its output in CPU c's ring: 0 or -errno. */
static int open_on(struct perf_event_attr *a, int pid, unsigned c)
{
	int fd = (int)syscall(SYS_perf_event_open, a, pid, (int)c, -1, PERF_FLAG_FD_CLOEXEC);
	int rc;

	if (fd < 0 && errno == EINVAL && a->inherit_thread) {
		a->inherit_thread = 0;	/* kernels before 5.13 */
		fd = (int)syscall(SYS_perf_event_open, a, pid, (int)c, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	map_failed = 0;
	if (ltt_k.rings[c].fd < 0)
		map_failed = (rc = ring_map(c, fd)) != 0;
	else
		rc = ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ltt_k.rings[c].fd) ? -errno : 0;
	if (!rc)
		rc = add_fd(fd);
	if (rc)
		close(fd);
	return rc;
}

/* The threads recorded in process scope: the process's, but libltt's own (named ltt-*). */
static unsigned own_threads(int *tids, unsigned max)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char p[300], comm[32] = "";

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", e->d_name);
		if (ltt_read_into(p, 0, comm, sizeof(comm)) <= 0)
			comm[0] = 0;
		if (!strncmp(comm, "ltt-", 4))
			continue;
		tids[n++] = atoi(e->d_name);
	}
	closedir(d);
	return n;
}

/* Opens attr (what: its name for messages) on every CPU for every target; 0 when it records on at
 * least the first target, else -errno with the reason noted missing. */
static int open_all(struct perf_event_attr *a, const char *what, const int *tids, unsigned ntids)
{
	char why[300];
	int first_err = 0, ok = 0, first_map = 0;

	for (unsigned c = 0; c < ltt_k.ncpu; c++)
		for (unsigned t = 0; t < ntids; t++) {
			int rc = open_on(a, tids[t], c);

			if (rc && !first_err) {
				first_err = -rc;
				first_map = map_failed;
			}
			if (!rc)
				ok = 1;
			else if (!ok)
				break;	/* refused on the first target: the same for the others */
		}
	if (ok)
		return 0;
	perf_reason(first_err, why, sizeof(why));
	if (first_map)	/* the event opened; its ring did not map: never the paranoia setting's fault */
		map_reason(first_err, why, sizeof(why));
	else if (ltt_k.system && (first_err == EACCES || first_err == EPERM))
		snprintf(why, sizeof(why), "every CPU and process needs CAP_PERFMON or perf_event_paranoid<=0 "
			 "(it is %d)", paranoid());
	ltt_kernel_missing(what, first_err, why);
	return -first_err;
}

static void recorded_add(const char *what)
{
	size_t n = strlen(ltt_k.recorded);

	snprintf(ltt_k.recorded + n, sizeof(ltt_k.recorded) - n, "%s%s", n ? "," : "", what);
}

/* Opens the tracepoints of the groups asked, and the switch records; notes what is missing. */
static void open_events(const int *tids, unsigned ntids)
{
	struct perf_event_attr a;

	for (unsigned i = 0; i < LTT_KTP_N; i++) {
		const struct ltt_ktp_def *d = &ltt_ktp_defs[i];
		struct ltt_ktp *tp = &ltt_k.tps[i];
		char why[200], what[64];
		int id, rc;
		/* (why is cut to leave room in the reason) */

		if (!(ltt_k.groups & d->group))
			continue;
		snprintf(what, sizeof(what), "%s:%s", d->sys, d->name);
		rc = ltt_tp_open(d->sys, d->name, &id, d->fields, tp->f, d->nfields, why, sizeof(why));
		if (rc) {
			char full[300];

			if (rc == -EACCES || rc == -EPERM)
				snprintf(full, sizeof(full), "%.150s; perf_event_paranoid=%d and no CAP_PERFMON", why,
					 paranoid());
			else
				snprintf(full, sizeof(full), "%s", why);
			ltt_kernel_missing(what, -rc, full);
			continue;
		}
		attr_base(&a);
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = (uint64_t)id;
		if (open_all(&a, what, tids, ntids))
			continue;
		tp->id = id;
		tp->on = 1;
		recorded_add(what);
	}
	/* Own threads' switches: perf's switch records need no privilege. With sched_switch they give
	 * the switch-ins (the tracepoint gives the outs); without it both. */
	if ((ltt_k.groups & (LTT_KGROUP_SCHED | LTT_KGROUP_SWITCH)) && !ltt_k.system) {
		attr_base(&a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_DUMMY;
		a.sample_type &= ~(uint64_t)PERF_SAMPLE_RAW;
		a.context_switch = 1;
		a.exclude_kernel = 1;
		if (!open_all(&a, "switch", tids, ntids)) {
			ltt_k.switch_on = 1;
			recorded_add("switch");
		}
	}
}

/* ---- start and stop ---------------------------------------------------------------------------- */

void ltt_kernel_emit_persistent(unsigned index, const void *payload, size_t len)
{
	struct ltt_slot s;

	if (ltt_event_reserve(&s, &ltt_kernel_facility, index, len, LTT_EVENT_PERSISTENT)) {
		memcpy(s.payload, payload, len);
		ltt_event_commit(&s);
	}
}

void ltt_kernel_emit(unsigned index, const void *payload, size_t len)
{
	struct ltt_slot s;

	if (ltt_event_reserve(&s, &ltt_kernel_facility, index, len, 0)) {
		memcpy(s.payload, payload, len);
		ltt_event_commit(&s);
	}
}

static void emit_recording(void)
{
	struct ltt_kpack p = { .len = 0 };
	char clock[32];

	if (ltt_k.conv_tsc)
		snprintf(clock, sizeof(clock), "tsc");
	else
		snprintf(clock, sizeof(clock), "clockid %d", (int)CLOCK_MONOTONIC);
	ltt_kpack_u32(&p, 0);
	ltt_kpack_str(&p, ltt_k.asked, 64);
	ltt_kpack_str(&p, ltt_k.recorded, sizeof(ltt_k.recorded));
	ltt_kpack_u8(&p, (uint8_t)ltt_k.system);
	ltt_kpack_str(&p, clock, sizeof(clock));
	ltt_kpack_u32(&p, (uint32_t)ltt_k.ring_bytes);
	ltt_kpack_u32(&p, LTT_KERNEL_DRAIN_MS);
	ltt_kernel_emit_persistent(LTT_K_RECORDING, p.buf, p.len);
	for (unsigned i = 0; i < ltt_k.nmissing; i++) {
		struct ltt_kpack q = { .len = 0 };

		ltt_kpack_u32(&q, 0);
		ltt_kpack_str(&q, ltt_k.missing[i].what, sizeof(ltt_k.missing[i].what));
		ltt_kpack_u32(&q, (uint32_t)ltt_k.missing[i].err);
		ltt_kpack_str(&q, ltt_k.missing[i].reason, sizeof(ltt_k.missing[i].reason));
		ltt_kernel_emit_persistent(LTT_K_MISSING, q.buf, q.len);
	}
}

/* The line naming what is missing and why (the same as the trace's kernel.missing) into line. */
static void missing_line(char *line, size_t size)
{
	size_t n = 0;

	line[0] = 0;
	for (unsigned i = 0; i < ltt_k.nmissing && n < size; i++) {
		/* consecutive items with the same reason share it */
		int same_next = i + 1 < ltt_k.nmissing && !strcmp(ltt_k.missing[i].reason, ltt_k.missing[i + 1].reason);

		n += (size_t)snprintf(line + n, size - n, "%s%s", ltt_k.missing[i].what, same_next ? ", " : "");
		if (!same_next && n < size)
			n += (size_t)snprintf(line + n, size - n, " (%s)%s", ltt_k.missing[i].reason,
					      i + 1 < ltt_k.nmissing ? "; " : "");
	}
}

/* One line on stderr naming what is missing and why. */
static void warn_missing(void)
{
	char line[1024];

	if (!ltt_k.nmissing)
		return;
	missing_line(line, sizeof(line));
	ltt_warn("kernel events not recorded: %s", line);
}

static void sysattrs(void)
{
	size_t n = 0;

	n += (size_t)snprintf(ltt_k.attrs + n, sizeof(ltt_k.attrs) - n,
			      "ltt_kernel=\"%s\"\nltt_kernel_scope=\"%s\"\nltt_kernel_missing=\"",
			      ltt_k.recorded, ltt_k.system ? "system" : "process");
	for (unsigned i = 0; i < ltt_k.nmissing && n < sizeof(ltt_k.attrs); i++)
		n += (size_t)snprintf(ltt_k.attrs + n, sizeof(ltt_k.attrs) - n, "%s%s", i ? "," : "",
				      ltt_k.missing[i].what);
	if (n < sizeof(ltt_k.attrs))
		n += (size_t)snprintf(ltt_k.attrs + n, sizeof(ltt_k.attrs) - n, "\"\n");
	if (ltt_k.nmissing && n < sizeof(ltt_k.attrs)) {
		char line[1024], esc[LTT_XML_ESC_MAX * sizeof(line)];

		/* the stderr line (cut), XML-escaped */
		missing_line(line, sizeof(line));
		esc[ltt_xml_escape(esc, line, strlen(line))] = 0;
		snprintf(ltt_k.attrs + n, sizeof(ltt_k.attrs) - n, "ltt_kernel_why=\"%s\"\n", esc);
	}
}

const char *ltt_kernel_sysattrs(void)
{
	return ltt_k.attrs;
}

__attribute__((constructor(101))) static void kernel_checksum(void)
{
	ltt_kernel_facility.checksum =
		ltt_checksum_strings(kernel_strings, sizeof(kernel_strings) / sizeof(kernel_strings[0]));
	for (unsigned i = 0; i < LTT_K_NEVENTS; i++)
		kernel_enabled[i] = LTT_EVENT_ON;
}

void ltt_kernel_prepare(const struct ltt_kernel_req *req)
{
	memset(&ltt_k, 0, sizeof(ltt_k));
	ltt_k.wake_fd = -1;
	ltt_k.groups = req->groups;
	if (!req->groups)
		return;
	ltt_k.system = req->system;
	snprintf(ltt_k.asked, sizeof(ltt_k.asked), "%s", req->asked);
	ltt_k.ring_bytes = req->ring_bytes ? req->ring_bytes : LTT_KERNEL_RING_DEFAULT;
	ltt_k.ring_fixed = req->ring_bytes != 0;
	if (ltt_k.system && !perfmon_capable() && paranoid() > 0) {
		char why[160];

		snprintf(why, sizeof(why), "every CPU and process needs CAP_PERFMON or perf_event_paranoid<=0 "
			 "(it is %d); the process's own threads are recorded", paranoid());
		ltt_kernel_missing("system", EACCES, why);
		ltt_k.system = 0;
	}
}

int ltt_kernel_open(struct ltt_region *rg)
{
	int tids[1024], self = -1;
	unsigned ntids;

	if (!ltt_k.groups)
		return 0;
	ltt_k.rg = rg;
	ltt_k.ncpu = rg->ncpu;
	ltt_k.conv_tsc = ltt_rt.clock_kind == LTT_CLOCK_TSC;
	ltt_k.pid = (uint32_t)getpid();
	for (unsigned c = 0; c < LTT_KCPU_MAX; c++)
		ltt_k.rings[c].fd = -1;
	if (ltt_k.ncpu > LTT_KCPU_MAX) {
		ltt_kernel_missing("cpus", E2BIG, "more CPUs than libltt's kernel rings take (LTT_KCPU_MAX)");
		ltt_k.ncpu = LTT_KCPU_MAX;
	}
	ltt_facility_register(&ltt_kernel_facility);
	ltt_fd_open();
	/* The drain thread first: it must not inherit the events (its own work is not the program's) */
	if (ltt_kernel_drain_start()) {
		ltt_kernel_missing("kernel", EAGAIN, "the drain thread could not start");
	} else {
		if (ltt_k.system)
			ntids = 1, tids[0] = self;
		else
			ntids = own_threads(tids, sizeof(tids) / sizeof(tids[0]));
		open_events(tids, ntids);
		if (!ltt_k.system && ltt_k.switch_on) {
			ltt_kernel_rd_start(tids, ntids);
			recorded_add("schedstat");
		}
	}
	sysattrs();
	return 0;
}

void ltt_kernel_begin(void)
{
	if (!ltt_k.groups)
		return;
	/* in reverse order of opening: each exit (sys_exit, irq_handler_exit, softirq_exit) before its
	 * entry, so that no interrupt or call is seen entered without its exit */
	for (unsigned i = ltt_k.nfds; i-- > 0;)
		ioctl(ltt_k.fds[i], PERF_EVENT_IOC_ENABLE, 0);
	ltt_kernel_drain_go();
	emit_recording();
	if (ltt_k.system)
		ltt_kernel_state_dump();
	ltt_fd_state_dump();
	warn_missing();
}

/* perf reports a ring's drops (PERF_RECORD_LOST) only with the next record it can write there: drops
 * at the very end would never be reported. So at stop, with the rings just emptied, this thread (one
 * of the program's: its events record) runs once on each CPU (a sched_setaffinity, a getppid), which
 * writes a record, and the pending loss record before it, into every ring; then its affinity is
 * restored. Process scope only (system scope rings see other processes' records anyway). */
static void flush_lost(void)
{
	cpu_set_t old, one;

	if (ltt_k.system || !ltt_k.thread_on || sched_getaffinity(0, sizeof(old), &old))
		return;
	/* from here this thread's system calls are libltt's (the drain leaves them out) */
	if (ltt_k.conv_tsc) {
		struct ltt_kconv cv;

		for (unsigned c = 0; c < ltt_k.ncpu; c++)
			if (ltt_k.rings[c].page && !ltt_kernel_conv_read(ltt_k.rings[c].page, &cv)) {
				ltt_k.stop_ns = ltt_kernel_time_of(&cv, ltt_clock_now());
				break;
			}
	} else {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ltt_k.stop_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	/* Release: stop_ns before stop_tid, read in that order by the drain thread (acquire) */
	__atomic_store_n(&ltt_k.stop_tid, (uint32_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	ltt_kernel_sync(100);
	for (unsigned c = 0; c < ltt_k.ncpu && c < CPU_SETSIZE; c++) {
		if (!ltt_k.rings[c].page || !CPU_ISSET(c, &old))
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			syscall(SYS_getppid);
	}
	sched_setaffinity(0, sizeof(old), &old);
	ltt_kernel_sync(100);
}

void ltt_kernel_fork_child(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!ltt_k.groups)
		return;
	/* the rings were not copied into this process (VM_DONTCOPY, MADV_DONTFORK): nothing is mapped
	 * there, and munmap of an unmapped range is a no-op; kept for a kernel that would copy them */
	for (unsigned c = 0; c < ltt_k.ncpu; c++)
		if (ltt_k.rings[c].page)
			munmap(ltt_k.rings[c].page, page + ltt_k.ring_bytes);
	for (unsigned i = 0; i < ltt_k.nfds; i++)
		close(ltt_k.fds[i]);
	if (ltt_k.wake_fd >= 0)
		close(ltt_k.wake_fd);
	free(ltt_k.fds);
	/* the drain thread does not exist here: nothing of the parent's recording is left */
	memset(&ltt_k, 0, sizeof(ltt_k));
	ltt_k.wake_fd = -1;
	for (unsigned c = 0; c < LTT_KCPU_MAX; c++)
		ltt_k.rings[c].fd = -1;
}

void ltt_kernel_stop(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!ltt_k.groups)
		return;
	flush_lost();
	for (unsigned i = 0; i < ltt_k.nfds; i++)
		ioctl(ltt_k.fds[i], PERF_EVENT_IOC_DISABLE, 0);
	ltt_kernel_drain_stop();	/* the last records drained */
	for (unsigned c = 0; c < ltt_k.ncpu; c++)
		if (ltt_k.rings[c].page)
			munmap(ltt_k.rings[c].page, page + ltt_k.ring_bytes);
	for (unsigned i = 0; i < ltt_k.nfds; i++)
		close(ltt_k.fds[i]);
	free(ltt_k.fds);
	ltt_k.fds = NULL;
	ltt_k.nfds = ltt_k.cap_fds = 0;
	ltt_k.groups = 0;
}
