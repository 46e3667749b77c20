/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the tracefile decoder. The input's first byte picks the byte order (bit 0) and
 * arch_size (bits 1-2); the rest becomes cpu/0 of a trace whose facility is tests/golden/reader's
 * types.xml (every type of the format) and whose blocks are 256 bytes. Every event is read back
 * through the value API. The reader must never crash, hang or read outside the event, and every
 * problem must name a file. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char types_xml[] =
	"<facility name=\"types\">\n"
	"  <event name=\"empty\"/>\n"
	"  <event name=\"scalars\"><struct>\n"
	"    <field name=\"u8\"><uint size=\"1\"/></field><field name=\"i16\"><int size=\"2\"/></field>\n"
	"    <field name=\"u32\"><uint size=\"4\"/></field><field name=\"i64\"><int size=\"8\"/></field>\n"
	"    <field name=\"l\"><int size=\"long\"/></field><field name=\"m\"><uint size=\"medium\"/></field>\n"
	"    <field name=\"f\"><float size=\"4\"/></field><field name=\"d\"><float size=\"8\"/></field>\n"
	"  </struct></event>\n"
	"  <event name=\"text\"><struct><field name=\"s\"><string/></field>\n"
	"    <field name=\"e\"><enum size=\"2\"><label name=\"ZERO\"/><label name=\"TEN\" value=\"10\"/></enum>"
	"</field></struct></event>\n"
	"  <event name=\"nested\"><struct>\n"
	"    <field name=\"arr\"><array size=\"3\"><typeref name=\"pair\"/></array></field>\n"
	"    <field name=\"seq\"><sequence lengthsize=\"2\"><string/></sequence></field>\n"
	"    <field name=\"u\"><union typecodesize=\"1\"><field name=\"num\"><uint size=\"4\"/></field>\n"
	"      <field name=\"str\"><string/></field></union></field>\n"
	"    <field name=\"inner\"><typeref name=\"pair\"/></field></struct></event>\n"
	"  <type name=\"pair\"><struct><field name=\"lo\"><uint size=\"2\"/></field>\n"
	"    <field name=\"hi\"><int size=\"2\"/></field></struct></type>\n"
	"</facility>\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const arch[] = { "LP32", "ILP32", "LP64", "ILP64" };
	int be;

	fuzz_trace_reset_with("tracefile", types_xml, sizeof(types_xml) - 1);
	if (size < 1 || size > 64 * FUZZ_BS)
		return 0;
	be = data[0] & 1;
	fuzz_trace_system_arch(be, 10, 1, arch[(data[0] >> 1) & 3]);
	fuzz_trace_facilities(be, 10);
	fuzz_trace_write("cpu/0", data + 1, size - 1);
	if (fuzz_trace_read(LTT_READ_BUILTIN | LTT_READ_CHECK) < 0)
		abort();	/* the directory itself is always good */
	return 0;
}
