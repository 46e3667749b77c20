# SPDX-License-Identifier: MIT
# Function tracing's bench program (bench/rows/func.sh), built two ways: -pg (not linked with libltt)
# and -finstrument-functions (linked with it). Part of `make bench` (bench-build), never of make check.
# (This file is read before bench/module.mk: $(BUILD)/bench, not its BENCH_DIR.)
BENCH_FUNC_CFLAGS := -std=gnu11 -O2 -g -fno-omit-frame-pointer
$(BUILD)/bench/bench_func_pg: bench/func/bench_func.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -pg -o $@ $<
$(BUILD)/bench/bench_func_cyg: bench/func/bench_func.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
# -pg -mfentry, and -finstrument-functions not linked with libltt (empty hooks in libcygstub.so):
# binaries ltt record --functions and uftrace record both take as they are (issue 37, point 7)
$(BUILD)/bench/bench_func_fentry: bench/func/bench_func.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -pg -mfentry -o $@ $<
$(BUILD)/bench/libcygstub.so: bench/func/cyg_stub.c
	@mkdir -p $(@D)
	$(CC) -O2 -shared -fPIC -o $@ $<
$(BUILD)/bench/bench_func_cygp: bench/func/bench_func.c $(BUILD)/bench/libcygstub.so
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -finstrument-functions -o $@ $< -L$(BUILD)/bench -lcygstub \
		-Wl,-rpath,$(abspath $(BUILD)/bench)
bench-build: $(BUILD)/bench/bench_func_pg $(BUILD)/bench/bench_func_cyg $(BUILD)/bench/bench_func_fentry \
	     $(BUILD)/bench/bench_func_cygp
