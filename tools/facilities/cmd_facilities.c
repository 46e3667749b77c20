/* SPDX-License-Identifier: MIT */
/* ltt facilities: the name, checksum and event count of every facility of facility files. */
#include <stdio.h>

#include <ltt/eventdefs.h>

#include "toolkit/cmd.h"

static int run(int argc, char **argv)
{
	char err[512];
	int files = 0;

	for (int i = 1; i < argc; i++) {
		struct ltt_eventdefs *defs;

		if (argv[i][0] == '-' && argv[i][1]) {
			ltt_tool_error("facilities", "unknown option '%s' (it takes only FILE.xml...; see ltt "
				       "facilities --help)", argv[i]);
			return 2;
		}
		if (ltt_eventdefs_parse_file(argv[i], &defs, err, sizeof(err))) {
			ltt_tool_error("facilities", "%s", err);
			return 1;
		}
		for (uint32_t k = 0; k < defs->n_facilities; k++) {
			const struct ltt_facility_desc *f = &defs->facilities[k];

			printf("%s 0x%08x %u\n", f->name, f->checksum, f->n_events);
		}
		ltt_eventdefs_free(defs);
		files++;
	}
	if (!files) {
		ltt_tool_error("facilities", "no facility file given (ltt facilities FILE.xml...)");
		return 2;
	}
	return fflush(stdout) ? 1 : 0;
}

const struct ltt_cmd ltt_cmd_facilities = {
	.name = "facilities",
	.summary = "list the facilities of facility files (name, checksum, events)",
	.usage = "usage: ltt facilities FILE.xml...\n\n"
		 "Parses each facility file and prints one line per facility:\n"
		 "  NAME 0xCHECKSUM EVENTS\n"
		 "(the checksum of doc/format.md section 8, the number of events). On a bad file, prints\n"
		 "the parser's message (FILE:LINE: what) and exits with status 1.\n",
	.run = run,
};
