/* SPDX-License-Identifier: MIT */
/* The program tests/e2e/sec_setuid.sh makes setuid root and runs as an ordinary user: prints
 * "euid=E ruid=U secure=S" (S: the kernel's AT_SECURE), then, when given a path, records a trace there
 * with its own ltt_start() options (the settings a setuid program may still pass) holding one region,
 * and prints "start RC". */
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <ltt/app.h>
#include <ltt/ltt.h>

int main(int argc, char **argv)
{
	struct ltt_options o = { 0 };
	int rc;

	printf("euid=%u ruid=%u secure=%lu\n", (unsigned)geteuid(), (unsigned)getuid(), getauxval(AT_SECURE));
	if (argc < 2)
		return 0;
	o.path = argv[1];
	rc = ltt_start(&o);
	printf("start %d\n", rc);
	ltt_region_enter("sec", "work");
	ltt_region_leave("sec", "work");
	return ltt_stop() < 0;
}
