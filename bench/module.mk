# SPDX-License-Identifier: MIT
# `make bench`: the benchmarks of ltt side by side with LTTng-UST and babeltrace2 (bench/run.sh,
# doc/performance.md). Never part of `make check`. The bench programs build with the project's flags
# into $(BUILD)/bench/; one that cannot build (a peer's headers missing, a piece of ltt not there yet)
# leaves its rows "not available", with the reason, and the rest still runs.

BENCH_DIR   := $(BUILD)/bench
# Every other bench/bench_NAME.c is a traced program: linked with the static libraries like a user's.
BENCH_LTT   := $(filter-out bench_floor bench_prims bench_lttng,$(patsubst bench/%.c,%,$(wildcard bench/bench_*.c)))
BENCH_PROGS := $(addprefix $(BENCH_DIR)/,bench_floor bench_prims bench_lttng $(BENCH_LTT))
LTTNG_UST_LIBS ?= $(shell pkg-config --libs lttng-ust 2>/dev/null || echo -llttng-ust -llttng-ust-common -ldl)

# lttng-ust's macros include the provider header by the name "./lttng_tp.h": -Ibench finds it.
$(O)/bench/%.o: CPPFLAGS += -Ibench
$(patsubst %,$(O)/bench/%.o,$(BENCH_LTT)): $(GEN_STAMP)

$(BENCH_DIR)/bench_prims: $(O)/bench/bench_prims.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^
$(BENCH_DIR)/bench_floor: $(O)/bench/bench_floor.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread
$(BENCH_DIR)/bench_lttng: $(O)/bench/bench_lttng.o $(O)/bench/lttng_tp.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(LTTNG_UST_LIBS) -lpthread
# The ltt programs link the static libraries, as a traced program would link libltt.
$(addprefix $(BENCH_DIR)/,$(BENCH_LTT)): $(BENCH_DIR)/%: $(O)/bench/%.o $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(STATIC_LIBS) $(ALL_LIBS)

.PHONY: bench bench-build
bench-build: all $(BENCH_PROGS)

bench:
	@$(MAKE) --no-print-directory deps-bench || echo "bench: peers missing; their rows will say so"
	@mkdir -p $(BENCH_DIR)
	@echo "bench: building (log: $(BENCH_DIR)/build.log)"
	@$(MAKE) --no-print-directory -k bench-build > $(BENCH_DIR)/build.log 2>&1 || \
	    echo "bench: some programs did not build (see $(BENCH_DIR)/build.log); their rows will say so"
	@BUILD=$(abspath $(BUILD)) LTT=$(abspath $(LTT)) SRCDIR=$(CURDIR) sh bench/run.sh
