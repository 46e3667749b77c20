/* SPDX-License-Identifier: MIT */
/* rec_rtest.h: the test facility `rtest`, encoded by hand the way `ltt gen` output does (the
 * contract of include/ltt/ltt.h), so that recorder tests do not depend on the generator. */
#ifndef REC_RTEST_H
#define REC_RTEST_H

#include <string.h>

#include <ltt/ltt.h>

uint32_t ltt_checksum_strings(const char *const *strs, unsigned n);	/* recorder/core.c */

#define RTEST_XML \
	"<facility name=\"rtest\">\n" \
	"  <event name=\"ev\"><struct>\n" \
	"    <field name=\"thread\"><uint size=\"4\"/></field>\n" \
	"    <field name=\"seq\"><uint size=\"8\"/></field>\n" \
	"    <field name=\"check\"><uint size=\"8\"/></field>\n" \
	"  </struct></event>\n" \
	"  <event name=\"sig\"><struct>\n" \
	"    <field name=\"thread\"><uint size=\"4\"/></field>\n" \
	"    <field name=\"seq\"><uint size=\"8\"/></field>\n" \
	"  </struct></event>\n" \
	"  <event name=\"blob\"><struct>\n" \
	"    <field name=\"n\"><uint size=\"4\"/></field>\n" \
	"    <field name=\"data\"><sequence lengthsize=\"4\"><uint size=\"1\"/></sequence></field>\n" \
	"  </struct></event>\n" \
	"</facility>\n"

static const char *const rtest_strings[] = {
	"rtest", "ev", "struct", "thread", "uint32_t", "seq", "uint64_t", "check", "uint64_t",
	"sig", "struct", "thread", "uint32_t", "seq", "uint64_t",
	"blob", "struct", "n", "uint32_t", "data", "sequence 2", "uint8_t",
};

static struct ltt_facility rtest_facility = { .name = "rtest", .xml = RTEST_XML, .n_events = 3 };

__attribute__((constructor)) static void rtest_register(void)
{
	rtest_facility.checksum = ltt_checksum_strings(rtest_strings, sizeof(rtest_strings) / sizeof(rtest_strings[0]));
	ltt_facility_register(&rtest_facility);
}

static inline uint64_t rtest_check(uint32_t thread, uint64_t seq)
{
	return (seq * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)thread << 40) ^ 0x5555;
}

static inline int rtest_ev(uint32_t thread, uint64_t seq, uint64_t check)
{
	if (ltt_unlikely(ltt_is_recording())) {
		struct ltt_slot s;

		if (ltt_event_reserve(&s, &rtest_facility, 0, 20, 0)) {
			memcpy(s.payload, &thread, 4);
			memcpy(s.payload + 4, &seq, 8);
			memcpy(s.payload + 12, &check, 8);
			ltt_event_commit(&s);
			return 1;
		}
	}
	return 0;
}

static inline int rtest_sig(uint32_t thread, uint64_t seq)
{
	if (ltt_unlikely(ltt_is_recording())) {
		struct ltt_slot s;

		if (ltt_event_reserve(&s, &rtest_facility, 1, 12, 0)) {
			memcpy(s.payload, &thread, 4);
			memcpy(s.payload + 4, &seq, 8);
			ltt_event_commit(&s);
			return 1;
		}
	}
	return 0;
}

/* blob: n, then a sequence of len bytes of value (i + n) & 0xff. */
static inline int rtest_blob(uint32_t n, uint32_t len)
{
	if (ltt_unlikely(ltt_is_recording())) {
		struct ltt_slot s;

		if (ltt_event_reserve(&s, &rtest_facility, 2, 8 + (size_t)len, 0)) {
			memcpy(s.payload, &n, 4);
			memcpy(s.payload + 4, &len, 4);
			for (uint32_t i = 0; i < len; i++)
				s.payload[8 + i] = (char)((i + n) & 0xff);
			ltt_event_commit(&s);
			return 1;
		}
	}
	return 0;
}

#endif
