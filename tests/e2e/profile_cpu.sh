#!/bin/sh
# SPDX-License-Identifier: MIT
# CPU usage sampling (LTT_CPU_SAMPLE_MS, core.process_cpu / core.thread_cpu): a thread spinning 200 ms
# of CPU and one sleeping 200 ms, sampled every 10 ms: the spinner's usage within 20% of 200 ms, the
# sleeper's below 20 ms; the threads' usages add up to the process's (within 5%: the recorder's own
# threads are among them, what a thread used between its last sample and its end is not). Then pause:
# no event recorded while paused, core.pause / core.resume recorded once each in that order, no CPU
# sample between them, and the first one after resume covers the 100 ms of CPU spent paused; the same
# with LTT_PAUSE_SIGNAL=SIGUSR1 raised twice instead of the calls; and over 300 pauses with a sample
# every millisecond, no sample between a pause and its resume.
set -u
prog="$BUILD/tests/progs/profile_calls"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-pcpu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_CPU_SAMPLE_MS=10 "$prog" cpu 200 || fail "profile_calls cpu exited with $?"
"$LTT" dump "$tmp/t" >"$tmp/dump" || fail "ltt dump"
grep -q '^core.sampling: .*cpu_sample_ms = 10, stack_sample_hz = 0' "$tmp/dump" || fail "no core.sampling"
spin=$(sed -n 's/^core.thread_name: .*tid = \([0-9]*\), name = "spinner".*/\1/p' "$tmp/dump")
slp=$(sed -n 's/^core.thread_name: .*tid = \([0-9]*\), name = "sleeper".*/\1/p' "$tmp/dump")
[ -n "$spin" ] && [ -n "$slp" ] || fail "thread names not found"
awk -v spin="$spin" -v slp="$slp" '
/^core.process_cpu:/ { sub(/.*usage_us = /, ""); sub(/ }/, ""); proc += $0; np++ }
/^core.thread_cpu:/ {
	tid = $0; sub(/.*tid = /, "", tid); sub(/,.*/, "", tid)
	u = $0; sub(/.*usage_us = /, "", u); sub(/ }/, "", u)
	all += u; t[tid] += u
}
END {
	printf "samples %d, process %d us, threads %d us, spinner %d us, sleeper %d us\n", np, proc, all, t[spin], t[slp]
	if (np < 5) { print "FAIL: fewer than 5 process samples"; exit 1 }
	if (t[spin] < 160000 || t[spin] > 240000) { print "FAIL: spinner not within 20% of 200 ms"; exit 1 }
	if (t[slp] > 20000) { print "FAIL: sleeper used more than 20 ms"; exit 1 }
	d = proc - all; if (d < 0) d = -d
	if (d > proc * 0.05) { print "FAIL: threads do not add up to the process"; exit 1 }
}' "$tmp/dump" || exit 1

# pause / resume, by the API and by LTT_PAUSE_SIGNAL
for mode in pause pausesig; do
out=$(LTT_TRACE="$tmp/$mode" LTT_CPU_SAMPLE_MS=10 LTT_PAUSE_SIGNAL=SIGUSR1 "$prog" $mode 100) ||
	fail "profile_calls $mode: $out"
echo "$mode: $out"
"$LTT" dump "$tmp/$mode" >"$tmp/pdump" || fail "ltt dump"
[ "$(grep -c '^gentypes.noargs:' "$tmp/pdump")" = 2 ] || fail "expected 2 events (before the pause, after resume): $(grep -c '^gentypes.noargs:' "$tmp/pdump")"
[ "$(grep -c '^core.pause:' "$tmp/pdump")" = 1 ] || fail "expected one core.pause"
[ "$(grep -c '^core.resume:' "$tmp/pdump")" = 1 ] || fail "expected one core.resume"
awk '
/^core.pause:/ { paused = 1; seen_pause = 1; next }
/^core.resume:/ { if (!paused) { print "FAIL: resume before pause"; exit 1 } paused = 0; resumed = 1; next }
/^gentypes.noargs:/ { if (paused) { print "FAIL: event while paused"; exit 1 } }
/^core.process_cpu:/ {
	if (paused) { print "FAIL: CPU sample while paused"; exit 1 }
	if (resumed) {
		u = $0; sub(/.*usage_us = /, "", u); sub(/ }/, "", u)
		printf "first usage after resume: %d us\n", u
		if (u + 0 < 80000) { print "FAIL: usage at resume does not cover the pause"; exit 1 }
		resumed = 0; checked = 1
	}
}
END { if (!checked) { print "FAIL: no CPU sample after resume"; exit 1 } }' "$tmp/pdump" || exit 1
done
# 300 pauses and resumes while the sampler samples every millisecond: a sample the sampler is taking
# when a pause comes is recorded before core.pause, never between core.pause and core.resume
LTT_TRACE="$tmp/loop" LTT_CPU_SAMPLE_MS=1 "$prog" pauseloop 300 || fail "profile_calls pauseloop exited with $?"
"$LTT" dump "$tmp/loop" >"$tmp/ldump" || fail "ltt dump"
awk '
/^core.pause:/ { paused = 1; np++; next }
/^core.resume:/ { paused = 0; nr++; next }
/^core.(process|thread)_cpu:/ { if (paused) inside++; else outside++ }
END {
	printf "pauseloop: %d pauses, %d resumes, %d samples outside, %d inside\n", np, nr, outside, inside
	if (np != 300 || nr != 300) { print "FAIL: expected 300 pauses and 300 resumes"; exit 1 }
	if (inside) { print "FAIL: CPU samples between core.pause and core.resume"; exit 1 }
	if (outside < 300) { print "FAIL: fewer samples than resumes (one after each resume)"; exit 1 }
}' "$tmp/ldump" || exit 1
# ltt record --cpu-sample / --stack-sample, and bad settings (one line, the program runs untraced)
out=$("$LTT" record -o "$tmp/r" --cpu-sample 20 --stack-sample 500 -- "$prog" chains 20 2>&1) || fail "ltt record: $out"
"$LTT" dump --event core.sampling "$tmp/r" | grep -q 'cpu_sample_ms = 20, stack_sample_hz = 500' ||
	fail "ltt record did not set the sampling: $("$LTT" dump --event core.sampling "$tmp/r")"
"$LTT" record -o "$tmp/r2" --cpu-sample x -- "$prog" chains 1 2>/dev/null; [ $? = 2 ] || fail "--cpu-sample x: not a usage error"
"$LTT" record -o "$tmp/r2" --stack-sample 100001 -- "$prog" chains 1 2>/dev/null; [ $? = 2 ] || fail "--stack-sample 100001: not a usage error"
for bad in LTT_CPU_SAMPLE_MS=ten LTT_STACK_SAMPLE_HZ=-5 LTT_STACK_SIGNAL=SIGNOPE LTT_PAUSE_SIGNAL=SIGSEGV LTT_STACK_SAMPLE_HZ=200000; do
	err=$(env LTT_TRACE="$tmp/bad" "$bad" "$prog" chains 1 2>&1 >/dev/null) || fail "$bad: the program failed"
	[ "$(echo "$err" | grep -c .)" = 1 ] && echo "$err" | grep -q "^ltt: .*not tracing$" || fail "$bad: $err"
	[ -e "$tmp/bad" ] && fail "$bad: a trace was made"
done
echo ok
