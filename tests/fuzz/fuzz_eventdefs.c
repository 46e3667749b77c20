/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as a facility file. The parser must never crash, hang or leak; when a
 * file parses, its canonical XML must parse back to the same checksum, and encoded sizes computed
 * from the input bytes themselves must stay within them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/eventdefs.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_eventdefs *d = NULL, *back = NULL;
	char err[256];

	if (ltt_eventdefs_parse_mem((const char *)data, size, "fuzz.xml", &d, err, sizeof(err))) {
		if (!memchr(err, '\0', sizeof(err)) || strncmp(err, "fuzz.xml", 8))
			abort();	/* every failure names the file */
		return 0;
	}
	for (uint32_t i = 0; i < d->n_facilities; i++) {
		const struct ltt_facility_desc *f = &d->facilities[i];
		char *xml = NULL;

		if (ltt_facility_checksum(f) != f->checksum)
			abort();
		if (ltt_facility_to_xml(f, &xml))
			continue;
		if (ltt_eventdefs_parse_mem(xml, strlen(xml), "back.xml", &back, err, sizeof(err)) ||
		    back->n_facilities != 1 || back->facilities[0].checksum != f->checksum)
			abort();
		ltt_eventdefs_free(back);
		free(xml);
		for (uint32_t k = 0; k < f->n_events; k++) {
			size_t n;

			if (!f->events[k].body)
				continue;
			for (int a = 0; a < LTT_ARCH_COUNT; a++)
				if (!ltt_type_encoded_size(f->events[k].body, (enum ltt_arch_size)a, a & 1, data,
							   size, &n) && n > size)
					abort();
		}
	}
	ltt_eventdefs_free(d);
	return 0;
}
