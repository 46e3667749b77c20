# examples: the demo program (a job scheduler traced with its own facility, examples/jobs.xml) and
# `make demo`, which builds it, records it with `ltt record` and summarizes the trace.
DEMO_DIR   := $(BUILD)/examples
DEMO_PROGS := $(DEMO_DIR)/demo
DEMO_TRACE := $(BUILD)/demo-traces

$(O)/examples/demo.o: $(GEN_STAMP)
$(DEMO_DIR)/%: $(O)/examples/%.o $(BUILD)/lib/libltt.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)

.PHONY: demo examples
examples: $(DEMO_PROGS)
demo: all $(DEMO_PROGS)
	@mkdir -p $(DEMO_TRACE)
	@$(LTT) record -o $(DEMO_TRACE) -- $(DEMO_DIR)/demo 2>&1 | tee $(DEMO_DIR)/demo.out
	@trace=$$(sed -n 's/^ltt record: trace written to //p' $(DEMO_DIR)/demo.out | tail -n 1); \
	 echo; echo "trace: $$trace"; echo; \
	 if $(LTT) help | grep -q '^  stats '; then $(LTT) stats "$$trace"; else ls -lR "$$trace"; fi ; \
	 echo; echo "app regions of the demo (ltt stats --regions, doc/app-api.md):"; \
	 $(LTT) stats --regions "$$trace" | sed -n '/^regions of all threads/,$$p'

# tests/e2e/recorder_demo.sh runs the demo program: build it for `make check`.
check: $(DEMO_PROGS)
