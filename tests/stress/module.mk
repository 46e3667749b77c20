# SPDX-License-Identifier: MIT
# `make stress`: minutes of recording under forced migrations, an outside taskset loop and nested
# tracing signal handlers, in discard and flight modes, every event checked (tests/stress/run.sh,
# doc/recorder.md "Stress"). Not part of `make check`. Sizes: STRESS_THREADS, STRESS_DISCARD,
# STRESS_FLIGHT (events per thread), e.g. make stress STRESS_FLIGHT=10000000.
.PHONY: stress
stress: all $(BUILD)/tests/progs/stress_emit $(BUILD)/tests/progs/stress_check
	@BUILD=$(abspath $(BUILD)) LTT=$(abspath $(LTT)) STRESS_THREADS=$(STRESS_THREADS) \
	    STRESS_DISCARD=$(STRESS_DISCARD) STRESS_FLIGHT=$(STRESS_FLIGHT) sh tests/stress/run.sh
