# SPDX-License-Identifier: MIT
# Rows of event selection (issue 13; doc/recorder.md "Choosing events"), sourced by bench/run.sh.
# An event deselected by a rule must cost what "not recording" costs: one load and one predictable
# branch (the event's enabled flag). context="tid" adds the thread id from a per-thread cache.

SEL="Event selection (ns per event, 1 thread, lower is better)"

# run_sel_deselected: bench_ltt recording (discard) with its int3 event deselected by LTT_EVENTS.
run_sel_deselected() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/sel-deselected
	rm -rf "$out"
	if ! LTT_TRACE=$out LTT_EVENTS=-bench.int3 LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$out"
}

measure select-off-int3-1t "$SEL" "ltt: not recording, int3" ns - run_ltt_off int3 1
measure select-deselected-int3-1t "$SEL" "ltt: recording, int3 deselected (LTT_EVENTS=-bench.int3)" ns \
	select-off-int3-1t run_sel_deselected

# run_sel_tid discard|flight: bench_select (int3 with context="tid") recording, 1 thread.
SELECT_PROG=$B/bench_select
run_sel_tid() {
	[ -x "$SELECT_PROG" ] || { RUN_ERR="bench_select not built (see $B/build.log)"; return; }
	out=$W/sel-tid
	rm -rf "$out"
	if ! LTT_TRACE=$out LTT_MODE=$1 LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$SELECT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_select failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$out"
}

measure select-notid-int3-1t "$SEL" "ltt: flight mode, int3" ns - run_ltt flight int3 1
measure select-tid-int3-1t "$SEL" "ltt: flight mode, int3 with context=\"tid\"" ns select-notid-int3-1t \
	run_sel_tid flight

# run_sel_storm: bench_ltt in flight mode with every int3 event a snapshot trigger (LTT_SNAPSHOT_ON);
# the interval keeps it to one snapshot: what is measured is the event path's trigger test and
# ltt_snapshot_trigger() finding the request already raised (one load).
run_sel_storm() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/sel-storm
	rm -rf "$out"
	if ! LTT_TRACE=$out LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_SNAPSHOT_ON=bench.int3 \
		LTT_SNAPSHOT_MIN_INTERVAL_MS=86400000 LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$out"
}

measure select-storm-int3-1t "$SEL" "ltt: flight mode, int3, every event a trigger (LTT_SNAPSHOT_ON)" ns \
	select-notid-int3-1t run_sel_storm
