/* SPDX-License-Identifier: MIT */
/* A thread that names itself, then records far more regions than a small flight-recorder ring
 * holds (tests/e2e/app_flight.sh): the snapshot taken at exit must still name the process, its
 * command and the thread, whose events are persistent. */
#include <pthread.h>

#include <ltt/app.h>

static void *spinner(void *arg)
{
	ltt_thread_start("spinner");
	for (int i = 0; i < 20000; i++) {
		ltt_region_enter("loop", "iter");
		ltt_data_int("loop", "i", i);
		ltt_region_leave("loop", "iter");
	}
	ltt_thread_exit();
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t th;

	ltt_cmd_start(argc, argv);
	ltt_cmd_name("flight");
	ltt_def_param("ring", "small");
	pthread_create(&th, NULL, spinner, NULL);
	pthread_join(th, NULL);
	return 0;
}
