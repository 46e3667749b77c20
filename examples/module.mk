# SPDX-License-Identifier: MIT
# examples: the demo program (a job scheduler traced with its own facility, examples/jobs.xml) and
# `make demo`, which builds it, records it with `ltt record` (CPU usage and stack sampling on) and
# summarizes the trace: statistics, app regions, the profile, the first TraceLog lines.
# The programs the documentation runs (tests/e2e/docs_run.sh): slow (README's kernel walk-through:
# regions pipe, lock, spin), hello (the smallest facility, examples/hello.xml), calls_pg (function
# tracing of a -pg build, not linked with libltt; -O0 so that no call is inlined or hoisted).
DEMO_DIR   := $(BUILD)/examples
DEMO_PROGS := $(DEMO_DIR)/demo $(DEMO_DIR)/slow $(DEMO_DIR)/hello $(DEMO_DIR)/calls_pg
DEMO_TRACE := $(BUILD)/demo-traces

$(O)/examples/demo.o $(O)/examples/hello.o: $(GEN_STAMP)
$(DEMO_DIR)/calls_pg: examples/calls.c
	@mkdir -p $(@D)
	$(CC) -pg -O0 -g -o $@ $<
$(DEMO_DIR)/%: $(O)/examples/%.o $(BUILD)/lib/libltt.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)

.PHONY: demo examples
examples: $(DEMO_PROGS)
demo: all $(DEMO_PROGS)
	@mkdir -p $(DEMO_TRACE)
	@$(LTT) record -o $(DEMO_TRACE) --cpu-sample 10 --stack-sample 1000 -- $(DEMO_DIR)/demo 20000 3 2>&1 | tee $(DEMO_DIR)/demo.out
	@trace=$$(sed -n 's/^ltt record: trace written to //p' $(DEMO_DIR)/demo.out | tail -n 1); \
	 echo; echo "trace: $$trace"; echo; \
	 if $(LTT) help | grep -q '^  stats '; then $(LTT) stats "$$trace"; else ls -lR "$$trace"; fi ; \
	 echo; echo "app regions of the demo (ltt stats --regions, doc/app-api.md):"; \
	 $(LTT) stats --regions "$$trace" | sed -n '/^regions of all threads/,$$p'; \
	 echo; echo "profile of the demo (CPU usage every 10 ms, stack samples at 1000 Hz; ltt stats --profile):"; \
	 $(LTT) stats --profile "$$trace" | sed -n '1p; /^all threads/,$$p'; \
	 echo; echo "the first TraceLog lines (ltt dump --format=tracelog --brief, doc/tracelog.md):"; \
	 $(LTT) dump --format=tracelog --brief "$$trace" | head -n 40

# tests/e2e/recorder_demo.sh runs the demo program: build it for `make check`.
check: $(DEMO_PROGS)
