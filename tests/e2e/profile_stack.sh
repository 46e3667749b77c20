#!/bin/sh
# SPDX-License-Identifier: MIT
# Stack sampling (LTT_STACK_SAMPLE_HZ, core.stack_sample; ltt stats --profile):
# 1. known call chains, main -> a() -> b() -> c() spinning 300 ms of CPU then main -> d() -> c() as long,
#    sampled at 1000 Hz: more than 90% of the ticks with c on the stack have c under the right callers
#    (a;b;c or d;c, main below), a and d each get 30-70% of them; every sample decodes (none without a
#    known stack); c, a, b, d are found by name in the binary (libdw).
# 2. samples taken inside libltt's event path and inside a signal handler: at least 300000 events in a
#    loop (more until the program's own SIGPROF handler ran 5 times) while its SIGPROF timer
#    (ITIMER_PROF) runs a handler that records an event: every event is in the trace (as many as the
#    program says, and one per SIGPROF it counted, which shows its own SIGPROF unaffected), every
#    sample decodes, a stack through the handler (if one was sampled) has the loop below it.
# 3. LTT_STACK_SIGNAL: another real-time signal is used when asked (core.sampling says which).
# Under ThreadSanitizer (SANITIZE=thread) most samples land in TSan's runtime (__tsan_read8, ...),
# which libunwind cannot step out of past the caller (the runtime has no unwind tables): the 90%
# attribution is then asserted over the samples whose stack reaches main (complete stacks) only.
set -u
prog="$BUILD/tests/progs/profile_calls"
tmp=$(mktemp -d /tmp/ltt-e2e-pstack.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# unplaced TRACE: the samples a reader cannot place (a delta whose depth is not what the thread's sample
# before it left, or with no sample before it), each with that sample: time, tracefile, match, depth.
# Printed when a sample has no known stack, to tell a lost sample from two reordered by the merge.
unplaced() {
	"$LTT" dump --event core.stack_sample "$1" | awk '{
		tid = $0; sub(/.*tid = /, "", tid); sub(/,.*/, "", tid)
		m = $0; sub(/.*match = /, "", m); sub(/,.*/, "", m)
		d = $0; sub(/.*depth = /, "", d); sub(/,.*/, "", d)
		f = $0; sub(/.*frames = \[ ?/, "", f); sub(/ ?\].*/, "", f)
		n = f == "" ? 0 : split(f, a, ",")
		if (m > 0 && (!(tid in left) || left[tid] != d))
			printf "sample %d (%s %s, tid %s, match %s, depth %s) does not follow the one before: %s\n",
				NR, $2, $3, tid, m, d, (tid in prev) ? prev[tid] : "none"
		left[tid] = m + n
		prev[tid] = sprintf("sample %d (%s %s, match %s, depth %s, %d frames: depth %d)", NR, $2, $3, m, d, n, m + n)
	}'
}

LTT_TRACE="$tmp/t" LTT_STACK_SAMPLE_HZ=1000 "$prog" chains 300 || fail "profile_calls chains exited with $?"
"$LTT" stats --profile "$tmp/t" >"$tmp/prof" 2>"$tmp/err" || { cat "$tmp/err"; fail "ltt stats --profile"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "problems reported"; }
head -1 "$tmp/prof"
grep -q ' 0 samples without a known stack' "$tmp/prof" ||
	{ unplaced "$tmp/t"; fail "samples without a known stack: $(head -1 "$tmp/prof")"; }
# the thread's hottest stacks: "TICKS PCT% f1;f2;..."
tsan=0
case "${SANITIZE:-}" in *thread*) tsan=1 ;; esac
sed -n '/^thread /,/^$/p' "$tmp/prof" | sed -n '/hottest stacks/,$p' | awk -v tsan=$tsan '
NF >= 3 && $1 ~ /^[0-9]+$/ {
	t = $1; s = ";" $3 ";"
	if (s !~ /;c;/) next
	if (tsan && s !~ /;main;/) next
	all += t
	if (s ~ /;main;a;b;c;/) { right += t; ina += t }
	else if (s ~ /;main;d;c;/) { right += t; ind += t }
}
END {
	printf "ticks with c: %d, under the right callers: %d (a %d, d %d)\n", all, right, ina, ind
	if (all < (tsan ? 20 : 100)) { print "FAIL: too few ticks in c"; exit 1 }
	if (right * 10 <= all * 9) { print "FAIL: 90% or less attributed to the right callers"; exit 1 }
	if (ina * 10 < all * 3 || ind * 10 < all * 3) { print "FAIL: a or d below 30%"; exit 1 }
}' || { cat "$tmp/prof"; exit 1; }

# 2. the event path and a signal handler
out=$(LTT_TRACE="$tmp/e" LTT_STACK_SAMPLE_HZ=1000 "$prog" events 300000) || fail "profile_calls events: $out"
nprof=$(echo "$out" | sed -n 's/^sigprof \([0-9]*\) events [0-9]*$/\1/p')
nev=$(echo "$out" | sed -n 's/^sigprof [0-9]* events \([0-9]*\)$/\1/p')
[ -n "$nprof" ] && [ -n "$nev" ] || fail "profile_calls events printed: $out"
"$LTT" stats "$tmp/e" >"$tmp/stats" 2>"$tmp/err" || { cat "$tmp/err"; fail "ltt stats"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "problems reported"; }
grep -Eq "^  gentypes\.ints +$nev " "$tmp/stats" || fail "not $nev events: $(grep gentypes "$tmp/stats")"
grep -Eq "^  gentypes\.noargs +$nprof " "$tmp/stats" || fail "not $nprof handler events: $(grep gentypes "$tmp/stats")"
grep -Eq '^  core\.stack_sample +[1-9]' "$tmp/stats" || fail "no stack samples"
"$LTT" stats --profile "$tmp/e" >"$tmp/eprof" || fail "ltt stats --profile"
head -1 "$tmp/eprof"
grep -q ' 0 samples without a known stack' "$tmp/eprof" ||
	{ unplaced "$tmp/e"; fail "samples without a known stack: $(head -1 "$tmp/eprof")"; }
grep -q ';main;event_loop' "$tmp/eprof" || fail "no stack through event_loop"
if grep 'on_prof' "$tmp/eprof" | grep -v 'main;event_loop;.*on_prof' | grep -q ';'; then
	fail "a stack through the SIGPROF handler without the interrupted loop below it"
fi

# 3. another signal
LTT_TRACE="$tmp/s" LTT_STACK_SAMPLE_HZ=500 LTT_STACK_SIGNAL=RTMIN+7 "$prog" chains 50 || fail "profile_calls with LTT_STACK_SIGNAL"
"$LTT" dump --event core.sampling "$tmp/s" | grep -q "stack_sample_hz = 500, signal = $(( $(kill -l RTMIN 2>/dev/null || echo 34) + 7 ))" ||
	fail "core.sampling does not name SIGRTMIN+7: $("$LTT" dump --event core.sampling "$tmp/s")"
"$LTT" stats "$tmp/s" | grep -Eq '^  core\.stack_sample +[1-9]' || fail "no stack samples with SIGRTMIN+7"
echo ok
