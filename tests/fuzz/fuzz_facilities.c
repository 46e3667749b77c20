/* SPDX-License-Identifier: MIT */
/* libFuzzer target: control/facilities. The input's first byte picks the byte order (bit 0) and the
 * dialect (bits 1-2: minor version 2, 5 or 10); the rest is control/facilities of a small trace whose
 * cpu/0 holds one good block (fuzz_trace.h). facility_load records that do not match eventdefs/,
 * damaged blocks, ids out of range: problems of one line, never a crash. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned minors[] = { 2, 5, 10, 10 };
	unsigned minor;
	int be;

	if (size < 1 || size > 64 * FUZZ_BS)
		return 0;
	be = data[0] & 1;
	minor = minors[(data[0] >> 1) & 3];
	fuzz_trace_reset("facilities");
	fuzz_trace_system(be, minor, 1);
	fuzz_trace_cpu("cpu/0", be, minor);
	fuzz_trace_write("control/facilities", data + 1, size - 1);
	fuzz_trace_read(LTT_READ_BUILTIN | LTT_READ_CHECK);
	return 0;
}
