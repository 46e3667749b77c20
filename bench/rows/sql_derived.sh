# SPDX-License-Identifier: MIT
# Rows of ltt sql's derived tables against the commands that compute the same models (issue 34, point
# 8; sourced by bench/run.sh, uses its measure): one trace of bench_func_cyg's calls (function tracing,
# EVENTS / 2 calls) with the kernel's sched and syscalls events of every CPU (--system: root, this
# machine's other processes included, as on a server). The figure is the command's CPU time (user +
# system, ms: the machine is shared, wall time measures the others), the ratio the one to its peer:
#   sqld-stats-functions   ltt stats --functions
#   sqld-calls-group       SELECT function, count(*), sum(dur_ns), sum(self_ns) FROM calls GROUP BY function
#   sqld-calls-sum         SELECT count(*), sum(dur_ns), max(depth) FROM calls
#   sqld-calls-tid         the same WHERE tid = (the traced thread)
#   sqld-stats-sched       ltt stats --sched
#   sqld-states-tid        SELECT state, count(*), sum(dur_ns) FROM thread_states WHERE tid = X GROUP BY state
#                          (X: the thread with the most intervals)
#   sqld-states-all        SELECT state, count(*), sum(dur_ns) FROM thread_states GROUP BY state
SD="ltt sql's derived tables against the commands (CPU ms of the command; lower is better)"
SQLD_TRACE=$W/sqld SQLD_NA= SQLD_TID= SQLD_STID=

sqld_trace() {
	rm -rf "$SQLD_TRACE"
	[ "$(id -u)" = 0 ] || { SQLD_NA="needs root (kernel events of every CPU)"; return; }
	[ -x "$B/bench_func_cyg" ] || { SQLD_NA="bench_func_cyg not built (see $B/build.log)"; return; }
	(cd "$T" && LTT_TRACE=$SQLD_TRACE LTT_FUNCTIONS=1 LTT_KERNEL=sched,syscalls LTT_KERNEL_SCOPE=system \
		exec "$B/bench_func_cyg" calls $((EVENTS / 2))) > "$T/out" 2> "$T/err" ||
		{ SQLD_NA="bench_func_cyg failed: $(head -n 1 "$T/err")"; return; }
	SQLD_TID=$("$LTT" sql "$SQLD_TRACE" --format=csv -e "SELECT tid FROM calls LIMIT 1" 2> /dev/null | tail -n 1)
	SQLD_STID=$("$LTT" sql "$SQLD_TRACE" --format=csv -e \
		"SELECT tid FROM thread_states GROUP BY tid ORDER BY count(*) DESC LIMIT 1" 2> /dev/null | tail -n 1)
	[ -n "$SQLD_TID" ] && [ -n "$SQLD_STID" ] || SQLD_NA="no calls or thread states in the trace"
	log "derived tables trace: calls of tid $SQLD_TID, thread_states of tid $SQLD_STID"
}

# run_cpu CMD...: RUN_VAL the CPU ms (user + system) of CMD
run_cpu() {
	[ -z "$SQLD_NA" ] || { RUN_ERR=$SQLD_NA; return; }
	times > "$T/times0"
	"$@" > /dev/null 2> "$T/err" || { RUN_ERR="$1 failed: $(head -n 1 "$T/err")"; return; }
	times > "$T/times1"
	RUN_VAL=$(awk -v a="$(children_cpu "$T/times0")" -v b="$(children_cpu "$T/times1")" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
}

if want sqld-; then
	sqld_trace
	measure sqld-stats-functions "$SD" "ltt stats --functions" ms - run_cpu "$LTT" stats --functions "$SQLD_TRACE"
	measure sqld-calls-group "$SD" "calls GROUP BY function (4 aggregates)" ms \
		sqld-stats-functions run_cpu "$LTT" sql "$SQLD_TRACE" -e \
		'SELECT function, count(*), sum(dur_ns), sum(self_ns) FROM calls GROUP BY function'
	measure sqld-calls-sum "$SD" "calls: count, sum, max" ms sqld-stats-functions \
		run_cpu "$LTT" sql "$SQLD_TRACE" -e 'SELECT count(*), sum(dur_ns), max(depth) FROM calls'
	measure sqld-calls-tid "$SD" "calls: the same, WHERE tid = X" ms sqld-stats-functions \
		run_cpu "$LTT" sql "$SQLD_TRACE" -e "SELECT count(*), sum(dur_ns), max(depth) FROM calls WHERE tid = $SQLD_TID"
	measure sqld-stats-sched "$SD" "ltt stats --sched" ms - run_cpu "$LTT" stats --sched "$SQLD_TRACE"
	measure sqld-states-tid "$SD" "thread_states, tid = X, by state" ms sqld-stats-sched \
		run_cpu "$LTT" sql "$SQLD_TRACE" -e \
		"SELECT state, count(*), sum(dur_ns) FROM thread_states WHERE tid = $SQLD_STID GROUP BY state"
	measure sqld-states-all "$SD" "thread_states by state" ms sqld-stats-sched \
		run_cpu "$LTT" sql "$SQLD_TRACE" -e 'SELECT state, count(*), sum(dur_ns) FROM thread_states GROUP BY state'
	rm -rf "$SQLD_TRACE"
fi
