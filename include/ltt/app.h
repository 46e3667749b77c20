/* SPDX-License-Identifier: MIT */
/* ltt/app.h: application tracing after Git's Trace2 (doc/app-api.md), part of libltt.
 *
 * A small vocabulary of high-level events (the command line, the command's name, regions of code,
 * threads, key/value data, child processes, errors), each with the source file and line of the
 * call, recorded as events of the `app` facility (eventdefs/app.xml) through the recorder's fast
 * path. `ltt dump --format=normal|perf|event` prints them the way Trace2's targets do.
 *
 * Every call is a macro that captures __FILE__ and __LINE__ and costs one predictable branch while
 * nothing records; the out-of-line ltt_app_* functions behind them are what the macros call while
 * recording (use the macros, not them). Nothing here allocates, locks or makes a system call on the
 * path of a region or data event; region nesting is tracked per thread without a lock.
 *
 * Recording starts as <ltt/ltt.h> says (LTT_TRACE=<path>, or ltt_start()). When it starts with the
 * process, the `version` event is recorded before main() runs, and the `exit` and `atexit` events
 * are recorded at exit() or return from main even if the program never calls ltt_cmd_exit().
 */
#ifndef LTT_APP_API_H
#define LTT_APP_API_H

#include <stdarg.h>
#include <stdint.h>

#include <ltt/ltt.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

#define LTT_APP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---- process and command ------------------------------------------------------------------------ */

/* Records `start` with the command line. Call it first thing in main(): it also records `version`
 * when recording was started by ltt_start() rather than with the process, and passes the session id
 * to child processes through the environment (LTT_APP_SID), so call it before starting threads. */
#define ltt_cmd_start(argc, argv) \
	LTT_APP_CALL(ltt_app_cmd_start_fl(__FILE__, __LINE__, (argc), (const char *const *)(argv)))

/* Records `exit` with code and returns code: `return ltt_cmd_exit(run(argc, argv));`. Without it,
 * `exit` is recorded by ltt's exit handler, with the code given to exit() or returned by main. */
#define ltt_cmd_exit(code) ltt_cmd_exit_fl(__FILE__, __LINE__, (code))

/* Records `error` with the formatted message and the format itself. */
#define ltt_error(...) LTT_APP_CALL(ltt_app_error_fl(__FILE__, __LINE__, __VA_ARGS__))
#define ltt_error_va(fmt, ap) LTT_APP_CALL(ltt_app_error_va_fl(__FILE__, __LINE__, (fmt), (ap)))

/* Records `signal`: call it from a handler of a fatal signal (async-signal-safe). */
#define ltt_signal(signo) LTT_APP_CALL(ltt_app_signal_fl(__FILE__, __LINE__, (signo)))

/* `cmd_path`: the full path of the program. */
#define ltt_cmd_path(path) LTT_APP_CALL(ltt_app_cmd_path_fl(__FILE__, __LINE__, (path)))
/* `cmd_name`: the command's canonical name; its hierarchy is the names of traced parent processes
 * and this one, joined by '/' (inherited through LTT_APP_PARENT_NAME). */
#define ltt_cmd_name(name) LTT_APP_CALL(ltt_app_cmd_name_fl(__FILE__, __LINE__, (name)))
/* `cmd_mode`: which of its major modes the command runs. */
#define ltt_cmd_mode(mode) LTT_APP_CALL(ltt_app_cmd_mode_fl(__FILE__, __LINE__, (mode)))
/* `alias`: an alias and its expansion (argv ends with NULL). */
#define ltt_cmd_alias(alias, argv) \
	LTT_APP_CALL(ltt_app_cmd_alias_fl(__FILE__, __LINE__, (alias), (const char *const *)(argv)))
/* `def_param`: a global parameter of the command, e.g. a setting or an option. */
#define ltt_def_param(param, value) LTT_APP_CALL(ltt_app_def_param_fl(__FILE__, __LINE__, (param), (value)))

/* ---- child processes ------------------------------------------------------------------------------ */

/* One child process, owned by the caller from ltt_child_start to ltt_child_exit. */
struct ltt_child {
	int id;			/* assigned by ltt_child_start: 0, 1, 2... per process; -1 when not recorded */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at ltt_child_start */
};

/* `child_start`: call before spawning; class is a rough classification ("editor", "hook"; NULL
 * gives "?"), argv ends with NULL. Children started with LTT_TRACE set to a directory write their
 * own trace beside this one; `ltt dump` of the directory's traces merges them. */
#define ltt_child_start(child, class_, use_shell, argv) \
	ltt_child_start_fl(__FILE__, __LINE__, (child), (class_), (use_shell), (const char *const *)(argv))
/* `child_exit`: call after reaping it; elapsed is measured from ltt_child_start. */
#define ltt_child_exit(child, pid, code) \
	LTT_APP_CALL(ltt_app_child_exit_fl(__FILE__, __LINE__, (child), (pid), (code)))

/* `exec`: call before exec(); returns the exec id to give ltt_exec_result when exec() fails. */
#define ltt_exec(exe, argv) ltt_exec_fl(__FILE__, __LINE__, (exe), (const char *const *)(argv))
#define ltt_exec_result(exec_id, code) \
	LTT_APP_CALL(ltt_app_exec_result_fl(__FILE__, __LINE__, (exec_id), (code)))

/* ---- threads -------------------------------------------------------------------------------------- */

/* `thread_start`, from inside the new thread: it is shown as "thNN:name" from then on (the main
 * thread, whose id is the process id, is "main"). `thread_exit`, from inside it before it returns. */
#define ltt_thread_start(name) LTT_APP_CALL(ltt_app_thread_start_fl(__FILE__, __LINE__, (name)))
#define ltt_thread_exit() LTT_APP_CALL(ltt_app_thread_exit_fl(__FILE__, __LINE__))

/* ---- regions and data ----------------------------------------------------------------------------- */

/* `region_enter` / `region_leave`: a region of code on the calling thread. Regions nest per thread;
 * category and label classify and name them (the leave's need not match the enter's, but matching
 * reads better). The _printf variants add a formatted message. */
#define ltt_region_enter(category, label) \
	LTT_APP_CALL(ltt_app_region_enter_fl(__FILE__, __LINE__, (category), (label), NULL))
#define ltt_region_leave(category, label) \
	LTT_APP_CALL(ltt_app_region_leave_fl(__FILE__, __LINE__, (category), (label), NULL))
#define ltt_region_enter_printf(category, label, ...) \
	LTT_APP_CALL(ltt_app_region_enter_printf_fl(__FILE__, __LINE__, (category), (label), __VA_ARGS__))
#define ltt_region_leave_printf(category, label, ...) \
	LTT_APP_CALL(ltt_app_region_leave_printf_fl(__FILE__, __LINE__, (category), (label), __VA_ARGS__))

/* `data`: a key and a value, attributed to the thread and its current region. json must hold one
 * JSON value (printers show it as a string when it does not parse). */
#define ltt_data_int(category, key, value) \
	LTT_APP_CALL(ltt_app_data_int_fl(__FILE__, __LINE__, (category), (key), (int64_t)(value)))
#define ltt_data_string(category, key, value) \
	LTT_APP_CALL(ltt_app_data_string_fl(__FILE__, __LINE__, (category), (key), (value)))
#define ltt_data_json(category, key, json) \
	LTT_APP_CALL(ltt_app_data_json_fl(__FILE__, __LINE__, (category), (key), (json)))

/* `printf`: a free-form message. */
#define ltt_printf(...) LTT_APP_CALL(ltt_app_printf_fl(__FILE__, __LINE__, __VA_ARGS__))

/* ---- timers and counters -------------------------------------------------------------------------- */

/* A stopwatch the program owns (one per thread, or protected by the program): start/stop pairs
 * accumulate intervals; ltt_timer records its summary as a `timer` event. Zero-initialise it. */
struct ltt_stopwatch {
	uint64_t intervals, total_ns, min_ns, max_ns;
	uint64_t started_ns;	/* 0 when stopped */
};
void ltt_stopwatch_start(struct ltt_stopwatch *sw);
void ltt_stopwatch_stop(struct ltt_stopwatch *sw);
#define ltt_timer(category, name, sw) LTT_APP_CALL(ltt_app_timer_fl(__FILE__, __LINE__, (category), (name), (sw)))
/* `counter`: a value the program counted. */
#define ltt_counter(category, name, value) \
	LTT_APP_CALL(ltt_app_counter_fl(__FILE__, __LINE__, (category), (name), (int64_t)(value)))

/* ---- what the macros call --------------------------------------------------------------------------- */

/* The one branch taken when nothing records. */
#define LTT_APP_CALL(call) do { if (ltt_unlikely(ltt_is_recording())) call; } while (0)

void ltt_app_cmd_start_fl(const char *file, int line, int argc, const char *const *argv);
void ltt_app_cmd_exit_fl(const char *file, int line, int code);
void ltt_app_error_fl(const char *file, int line, const char *fmt, ...) LTT_APP_PRINTF(3, 4);
void ltt_app_error_va_fl(const char *file, int line, const char *fmt, va_list ap) LTT_APP_PRINTF(3, 0);
void ltt_app_signal_fl(const char *file, int line, int signo);
void ltt_app_cmd_path_fl(const char *file, int line, const char *path);
void ltt_app_cmd_name_fl(const char *file, int line, const char *name);
void ltt_app_cmd_mode_fl(const char *file, int line, const char *mode);
void ltt_app_cmd_alias_fl(const char *file, int line, const char *alias, const char *const *argv);
void ltt_app_def_param_fl(const char *file, int line, const char *param, const char *value);
void ltt_app_child_start_fl(const char *file, int line, struct ltt_child *child, const char *child_class,
			    int use_shell, const char *const *argv);
void ltt_app_child_exit_fl(const char *file, int line, const struct ltt_child *child, int pid, int code);
int ltt_app_exec_fl(const char *file, int line, const char *exe, const char *const *argv);
void ltt_app_exec_result_fl(const char *file, int line, int exec_id, int code);
void ltt_app_thread_start_fl(const char *file, int line, const char *name);
void ltt_app_thread_exit_fl(const char *file, int line);
void ltt_app_region_enter_fl(const char *file, int line, const char *category, const char *label,
			     const char *msg);
void ltt_app_region_leave_fl(const char *file, int line, const char *category, const char *label,
			     const char *msg);
void ltt_app_region_enter_printf_fl(const char *file, int line, const char *category, const char *label,
				    const char *fmt, ...) LTT_APP_PRINTF(5, 6);
void ltt_app_region_leave_printf_fl(const char *file, int line, const char *category, const char *label,
				    const char *fmt, ...) LTT_APP_PRINTF(5, 6);
void ltt_app_data_int_fl(const char *file, int line, const char *category, const char *key, int64_t value);
void ltt_app_data_string_fl(const char *file, int line, const char *category, const char *key,
			    const char *value);
void ltt_app_data_json_fl(const char *file, int line, const char *category, const char *key,
			  const char *json);
void ltt_app_printf_fl(const char *file, int line, const char *fmt, ...) LTT_APP_PRINTF(3, 4);
void ltt_app_timer_fl(const char *file, int line, const char *category, const char *name,
		      const struct ltt_stopwatch *sw);
void ltt_app_counter_fl(const char *file, int line, const char *category, const char *name, int64_t value);

static inline int ltt_cmd_exit_fl(const char *file, int line, int code)
{
	if (ltt_unlikely(ltt_is_recording()))
		ltt_app_cmd_exit_fl(file, line, code);
	return code;
}

static inline void ltt_child_start_fl(const char *file, int line, struct ltt_child *child,
				      const char *child_class, int use_shell, const char *const *argv)
{
	child->id = -1;
	child->start_ns = 0;
	if (ltt_unlikely(ltt_is_recording()))
		ltt_app_child_start_fl(file, line, child, child_class, use_shell, argv);
}

static inline int ltt_exec_fl(const char *file, int line, const char *exe, const char *const *argv)
{
	if (ltt_unlikely(ltt_is_recording()))
		return ltt_app_exec_fl(file, line, exe, argv);
	return -1;
}

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
