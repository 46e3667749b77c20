/* SPDX-License-Identifier: MIT */
/* recorder/kernel_opts.c: LTT_KERNEL=LIST (sched, syscalls, irq, faults, switch; "1" or "default": sched,
 * syscalls), LTT_KERNEL_SCOPE=process|system, LTT_KERNEL_BUFFER=SIZE, and ltt_options' kernel fields. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_parse.h"
#include "kernel.h"

static const struct {
	const char *name;
	unsigned group;
} groups[] = {
	{ "sched", LTT_KGROUP_SCHED }, { "syscalls", LTT_KGROUP_SYSCALLS }, { "irq", LTT_KGROUP_IRQ },
	{ "faults", LTT_KGROUP_FAULTS },
	/* perf's switch records of the process's own threads alone (no tracepoint, no privilege): what
	 * function tracing needs for the time off the CPU (ltt record --functions records it) */
	{ "switch", LTT_KGROUP_SWITCH },
};

int ltt_kernel_parse(const struct ltt_options *opt, struct ltt_kernel_req *req, char *why, size_t n)
{
	const char *s = opt->kernel;

	memset(req, 0, sizeof(*req));
	if (!s || !*s || !strcmp(s, "0"))
		return 0;
	if (!strcmp(s, "1") || !strcmp(s, "default"))
		s = "sched,syscalls";
	while (*s) {
		size_t len = strcspn(s, ",");
		unsigned i;

		for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
			if (strlen(groups[i].name) == len && !strncmp(groups[i].name, s, len))
				break;
		if (i == sizeof(groups) / sizeof(groups[0])) {
			ltt_env_why(why, n, "LTT_KERNEL", opt->kernel,
				    "a comma list of sched, syscalls, irq, faults, switch");
			return -EINVAL;
		}
		req->groups |= groups[i].group;
		s += len;
		if (*s == ',')
			s++;
	}
	for (unsigned i = 0, k = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (req->groups & groups[i].group)
			k += (unsigned)snprintf(req->asked + k, sizeof(req->asked) - k, "%s%s", k ? "," : "",
						groups[i].name);
	if (opt->kernel_buffer && (opt->kernel_buffer < 8192 || (opt->kernel_buffer & (opt->kernel_buffer - 1)) ||
				   opt->kernel_buffer > (1u << 30))) {
		char v[32];

		snprintf(v, sizeof(v), "%zu", opt->kernel_buffer);
		ltt_env_why(why, n, "LTT_KERNEL_BUFFER", v, "a power of two from 8k to 1G");
		return -EINVAL;
	}
	req->system = opt->kernel_system != 0;
	req->ring_bytes = opt->kernel_buffer;
	return 0;
}

int ltt_kernel_env(struct ltt_options *o, char *why, size_t n)
{
	const char *scope = secure_getenv("LTT_KERNEL_SCOPE");
	uint64_t v;
	int rc;

	o->kernel = secure_getenv("LTT_KERNEL");
	if (o->kernel && *o->kernel && (rc = ltt_env_word(&ltt_env_words[LTT_ENV_KERNEL_ID], o->kernel, why, n)) < 0)
		return rc;
	if (scope && *scope) {
		if ((rc = ltt_env_word(&ltt_env_words[LTT_ENV_KERNEL_SCOPE_ID], scope, why, n)) < 0)
			return rc;
		o->kernel_system = rc == 1;
	}
	if ((rc = ltt_env_get(LTT_ENV_KERNEL_BUFFER_ID, &v, why, n)) < 0)
		return rc;
	if (rc)
		o->kernel_buffer = (size_t)v;
	return 0;
}
