/* SPDX-License-Identifier: MIT */
/* An idle traced program for the flush-timer row (bench/rows/io.sh): sleeps SECONDS, then prints the CPU
 * time the whole process used while sleeping (every thread: libltt's consumer included), from
 * getrusage(RUSAGE_SELF):
 *   idle_cpu_ms=F
 * Recording is decided by the environment (LTT_TRACE); without it, the "not recording" figure.
 * Usage: bench_idle SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <ltt/ltt.h>

static double cpu_ms(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 10, c0;
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	c0 = cpu_ms();
	while (nanosleep(&ts, &ts))
		;
	printf("idle_cpu_ms=%.3f recording=%d\n", cpu_ms() - c0, ltt_recording());
	return 0;
}
