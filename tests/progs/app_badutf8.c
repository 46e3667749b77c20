/* SPDX-License-Identifier: MIT */
/* Strings that are not UTF-8 through the app API (tests/e2e/json_badutf8.sh): a thread name, region
 * categories and labels, a data string and a printf message holding invalid bytes, overlong forms,
 * an encoded surrogate, a sequence cut short at the end, control characters and JSON's specials.
 * The worker enters its region twice, the main thread once. */
#include <pthread.h>

#include <ltt/app.h>

#define THREAD	"th\xff\x01 \xc0\x80"
#define CAT	"cat\xed\xa0\x80"
#define LABEL	"lab\xff" "el\"\\\n\xc3"

static void *worker(void *arg)
{
	(void)arg;
	ltt_thread_start(THREAD);
	for (int i = 0; i < 2; i++) {
		ltt_region_enter(CAT, LABEL);
		ltt_data_string(CAT, "key\xe0\x80\x80", "value\xf0\x80\x80\x80\x1f end\xe2\x82");
		ltt_region_leave(CAT, LABEL);
	}
	ltt_thread_exit();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	ltt_cmd_start(argc, argv);
	ltt_region_enter(CAT, "main\xfe");
	ltt_printf("message \xff\xfe\x7f\x01");
	if (pthread_create(&th, NULL, worker, NULL))
		return 1;
	pthread_join(th, NULL);
	ltt_region_leave(CAT, "main\xfe");
	return 0;
}
