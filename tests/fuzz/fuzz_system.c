/* SPDX-License-Identifier: MIT */
/* libFuzzer target: info/system.xml. The input replaces the system.xml of a small good trace
 * (fuzz_trace.h); the reader opens it or refuses it with one line, and reads what it opens without a
 * crash, a hang or a broken promise. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_reset("system");
	fuzz_trace_write("info/system.xml", data, size);
	fuzz_trace_read(LTT_READ_BUILTIN | LTT_READ_CHECK);
	return 0;
}
