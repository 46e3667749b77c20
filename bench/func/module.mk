# SPDX-License-Identifier: MIT
# Function tracing's bench program (bench/rows/func.sh), built two ways: -pg (not linked with libltt)
# and -finstrument-functions (linked with it). Part of `make bench` (bench-build), never of make check.
BENCH_FUNC_CFLAGS := -std=gnu11 -O2 -g -fno-omit-frame-pointer
$(BENCH_DIR)/bench_func_pg: bench/func/bench_func.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -pg -o $@ $<
$(BENCH_DIR)/bench_func_cyg: bench/func/bench_func.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(BENCH_FUNC_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
bench-build: $(BENCH_DIR)/bench_func_pg $(BENCH_DIR)/bench_func_cyg
