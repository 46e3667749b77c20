/* SPDX-License-Identifier: MIT */
/* A program using every call of <ltt/app.h> in a fixed order, for the golden outputs of
 * `ltt dump --format=normal|perf|event --brief` (tests/e2e/app_golden.sh). Threads run one after
 * the other so that the merged order is the same on every run. Exits with 3 without calling
 * ltt_cmd_exit(): exit and atexit come from libltt's exit handler. */
#include <pthread.h>
#include <stdint.h>

#include <ltt/app.h>

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;

	ltt_thread_start("preload_thread");
	ltt_region_enter("index", "preload");
	ltt_data_int("index", "offset", i * 508);
	ltt_data_int("index", "count", 508);
	ltt_region_leave("index", "preload");
	ltt_thread_exit();
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *alias[] = { "status", "--short", NULL };
	static const char *child_argv[] = { "git", "gc", "--auto", "it's here", NULL };
	static const char *exec_argv[] = { "--version", NULL };
	struct ltt_stopwatch sw = { .intervals = 4, .total_ns = 10000000, .min_ns = 1000000, .max_ns = 4000000 };
	struct ltt_child child;
	pthread_t th;
	int id;

	ltt_cmd_start(argc, argv);
	ltt_cmd_path("/usr/libexec/app_golden");
	ltt_cmd_name("golden");
	ltt_cmd_mode("full");
	ltt_cmd_alias("st", alias);
	ltt_def_param("core.abbrev", "7");

	ltt_region_enter_printf("index", "do_read_index", "%s", ".git/index");
	ltt_data_int("index", "read/version", 2);
	ltt_region_enter_printf("dir", "read_recursive", "%s", "src/");
	ltt_data_string("dir", "kind", "tree");
	ltt_data_json("dir", "sizes", "{\"a\":[1,2.5e3,true,null],\"b\":\"x\"}");
	ltt_data_json("dir", "broken", "{\"a\":");
	ltt_region_leave_printf("dir", "read_recursive", "%s", "src/");
	ltt_region_leave_printf("index", "do_read_index", "%s", ".git/index");

	ltt_region_enter("index", "preload_all");
	for (int i = 0; i < 2; i++) {
		pthread_create(&th, NULL, worker, (void *)(intptr_t)i);
		pthread_join(th, NULL);
	}
	ltt_region_leave("index", "preload_all");

	ltt_printf("%d files, %s", 42, "done");
	ltt_error("cannot %s: %d", "frobnicate", 7);
	ltt_child_start(&child, "hook", 0, child_argv);
	ltt_child_exit(&child, 4242, 1);
	id = ltt_exec("git", exec_argv);
	ltt_exec_result(id, 2);
	ltt_timer("index", "lstat", &sw);
	ltt_counter("index", "files", 3552);
	return 3;
}
