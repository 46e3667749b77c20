/* SPDX-License-Identifier: MIT */
/* The app layer, process side: the session (version event, session id passed to children), the
 * command's events, child processes, exec, errors, and the exit and atexit events recorded from an
 * exit handler. Cold paths: none of this runs per region. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <urcu/uatomic.h>

#include <ltt/app.h>

#include "app_internal.h"

#define APP_EVT_VERSION "1"		/* the `evt` of the version event (Trace2's EVENT version) */
#define APP_ENV_SID "LTT_APP_SID"	/* this process's session id, for its children */
#define APP_ENV_PARENT_NAME "LTT_APP_PARENT_NAME"	/* the cmd_name hierarchy so far */

static char app_sid[512];		/* "[PARENT/]YYYYMMDDTHHMMSS.uuuuuuZ-Hhhhhhhhh-Ppppppppp" */
static char app_session[PATH_MAX];	/* ltt_trace_path() when version was last recorded */
static int app_exit_handler;		/* 1 once on_exit() took our handler in this recording */
static int app_exit_recorded;		/* ltt_cmd_exit() recorded `exit` */
static int app_exit_done;		/* the exit handler ran */
static int app_child_next;		/* next child id */
static int app_exec_next;		/* next exec id */

void ltt_app_vformat(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (!fmt || vsnprintf(buf, len, fmt, ap) < 0)
		buf[0] = '\0';
}

static uint32_t app_host_hash(void)
{
	char host[256];
	uint32_t h = 2166136261u;	/* FNV-1a */

	if (gethostname(host, sizeof(host) - 1) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	for (const unsigned char *p = (const unsigned char *)host; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* dst = "a/b", or "b" when a is NULL or empty or the result would not fit. */
static void app_join(char *dst, size_t size, const char *a, const char *b)
{
	size_t la = a ? strlen(a) : 0, lb = strlen(b);

	if (lb >= size)
		lb = size - 1;
	if (la && la + 1 + lb < size) {
		memcpy(dst, a, la);
		dst[la++] = '/';
	} else {
		la = 0;
	}
	memcpy(dst + la, b, lb);
	dst[la + lb] = '\0';
}

/* Trace2's session id: the start time in UTC, a hash of the host name, the process id, prefixed by
 * the parent's session id when a traced parent started us. */
static void app_make_sid(void)
{
	const char *parent = secure_getenv(APP_ENV_SID);
	struct timespec ts;
	struct tm tm;
	char own[96];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(own, sizeof(own), "%04d%02d%02dT%02d%02d%02d.%06ldZ-H%08x-P%08x", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000,
		 app_host_hash(), (unsigned)getpid());
	app_join(app_sid, sizeof(app_sid), parent, own);
	setenv(APP_ENV_SID, app_sid, 1);
}

static void app_on_exit(int status, void *arg)
{
	(void)arg;
	if (!ltt_is_recording() || uatomic_xchg(&app_exit_done, 1))
		return;
	if (!uatomic_read(&app_exit_recorded))
		trace_app_exit(app_tid(), __FILE__, __LINE__, status);
	trace_app_atexit(app_tid(), __FILE__, __LINE__, status);
}

/* Once per recording: the version event, the session id, and an exit handler registered after the
 * recorder's own (exit handlers run last-registered first, so ours records before the recorder
 * flushes). Called from the constructor when recording starts with the process, and from
 * ltt_cmd_start() for recordings started later. */
static void app_session_begin(const char *file, int line)
{
	const char *path = ltt_trace_path();

	if (!path || !strcmp(path, app_session))
		return;
	snprintf(app_session, sizeof(app_session), "%s", path);
	if (!app_sid[0])
		app_make_sid();
	if (!app_exit_handler && on_exit(app_on_exit, NULL) == 0)
		app_exit_handler = 1;
	uatomic_set(&app_exit_done, 0);
	trace_app_version(app_tid(), file, (uint32_t)line, APP_EVT_VERSION, LTT_VERSION, app_sid,
			  (uint32_t)getpid());
}

/* A forked child is a new process: new thread id, new session id when it records. */
static void app_atfork_child(void)
{
	ltt_app_self.tid = 0;
	app_sid[0] = '\0';
	app_session[0] = '\0';
	app_exit_handler = 0;
	app_exit_recorded = 0;
	app_exit_done = 0;
}

/* Runs after the recorder's constructor (a larger priority runs later), which starts recording
 * when LTT_TRACE is set. */
__attribute__((constructor(LTT_APP_CTOR_PRIORITY)))
static void app_init(void)
{
	pthread_atfork(NULL, NULL, app_atfork_child);
	if (ltt_is_recording())
		app_session_begin(__FILE__, __LINE__);
}

uint32_t ltt_app_tid_slow(void)
{
	ltt_app_self.tid = (uint32_t)syscall(SYS_gettid);
	return ltt_app_self.tid;
}

void ltt_app_cmd_start_fl(const char *file, int line, int argc, const char *const *argv)
{
	size_t n = argc > 0 ? (size_t)argc : 0;

	app_session_begin(file, line);
	if (argv && n > app_argc(argv))
		n = app_argc(argv);
	trace_app_start(app_tid(), file, (uint32_t)line, n, argv);
}

void ltt_app_cmd_exit_fl(const char *file, int line, int code)
{
	uatomic_set(&app_exit_recorded, 1);
	trace_app_exit(app_tid(), file, (uint32_t)line, code);
}

void ltt_app_error_va_fl(const char *file, int line, const char *fmt, va_list ap)
{
	char msg[APP_MSG_MAX];

	ltt_app_vformat(msg, sizeof(msg), fmt, ap);
	trace_app_error(app_tid(), file, (uint32_t)line, msg, fmt);
}

void ltt_app_error_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_app_error_va_fl(file, line, fmt, ap);
	va_end(ap);
}

void ltt_app_signal_fl(const char *file, int line, int signo)
{
	trace_app_signal(app_tid(), file, (uint32_t)line, signo);
}

void ltt_app_cmd_path_fl(const char *file, int line, const char *path)
{
	trace_app_cmd_path(app_tid(), file, (uint32_t)line, path);
}

void ltt_app_cmd_name_fl(const char *file, int line, const char *name)
{
	const char *parent = secure_getenv(APP_ENV_PARENT_NAME);
	char hierarchy[512];

	if (!name)
		name = "";
	app_join(hierarchy, sizeof(hierarchy), parent, name);
	setenv(APP_ENV_PARENT_NAME, hierarchy, 1);
	trace_app_cmd_name(app_tid(), file, (uint32_t)line, name, hierarchy);
}

void ltt_app_cmd_mode_fl(const char *file, int line, const char *mode)
{
	trace_app_cmd_mode(app_tid(), file, (uint32_t)line, mode);
}

void ltt_app_cmd_alias_fl(const char *file, int line, const char *alias, const char *const *argv)
{
	trace_app_alias(app_tid(), file, (uint32_t)line, alias, app_argc(argv), argv);
}

void ltt_app_def_param_fl(const char *file, int line, const char *param, const char *value)
{
	trace_app_def_param(app_tid(), file, (uint32_t)line, param, value);
}

void ltt_app_child_start_fl(const char *file, int line, struct ltt_child *child, const char *child_class,
			    int use_shell, const char *const *argv)
{
	child->id = uatomic_add_return(&app_child_next, 1) - 1;
	child->start_ns = ltt_mono_ns();
	trace_app_child_start(app_tid(), file, (uint32_t)line, child->id, child_class ? child_class : "?",
			      use_shell ? 1 : 0, app_argc(argv), argv);
}

void ltt_app_child_exit_fl(const char *file, int line, const struct ltt_child *child, int pid, int code)
{
	uint64_t now = ltt_mono_ns();
	uint64_t elapsed = child->start_ns && now > child->start_ns ? now - child->start_ns : 0;

	trace_app_child_exit(app_tid(), file, (uint32_t)line, child->id, pid, code, elapsed);
}

int ltt_app_exec_fl(const char *file, int line, const char *exe, const char *const *argv)
{
	int id = uatomic_add_return(&app_exec_next, 1) - 1;

	trace_app_exec(app_tid(), file, (uint32_t)line, id, exe, app_argc(argv), argv);
	return id;
}

void ltt_app_exec_result_fl(const char *file, int line, int exec_id, int code)
{
	trace_app_exec_result(app_tid(), file, (uint32_t)line, exec_id, code);
}
