#!/bin/sh
# SPDX-License-Identifier: MIT
# Threads first-class (issue 29): ltt dump --tid, ltt stats --per-thread, ltt stats --profile limited
# by --tid, --from/--to and --region, on tests/progs/threads_prog.c's traces (ground truth: the thread
# ids and the events each thread records, as the program prints and defines them).
# 1. count N: w0, w1, w2 record (K + 1) * N app.data_int each inside one region, main N app.printf:
#    ltt dump --tid prints exactly the events of those threads (per type, and every line's tid), with
#    --threads=2 and --format=json too; ltt stats --per-thread gives the same counts per thread and
#    type (text and JSON), its names (Trace2's thNN:wK in the order the threads started, main), and per thread the events ltt sql's
#    threads table counts; --tid limits it, --from counts the events of that time as ltt sql does;
#    bad values are refused.
# 2. spin MS at 1000 Hz: thread alpha spins MS ms of CPU in spin_alpha() inside region alpha, then MS
#    ms in spin_outside(); thread beta MS ms in spin_beta() inside region beta. --region=alpha counts
#    exactly the samples ltt sql finds on alpha's thread between the region's enter and leave, none in
#    spin_outside or on beta, about MS ticks; --tid=BETA only beta's; --from/--to the region's bounds
#    exactly the samples of both threads in that time.
set -u
: "${BUILD:?}" "${LTT:?}"
prog="$BUILD/tests/progs/threads_prog"
tmp=$(mktemp -d /tmp/ltt-e2e-threads-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
N=1000

LTT_TRACE="$tmp/c" "$prog" count $N > "$tmp/tids" || fail "threads_prog count"
tid() { awk -v n="$1" '$1 == n { print $2 }' "$tmp/tids"; }
M=$(tid main) W0=$(tid w0) W1=$(tid w1) W2=$(tid w2)
[ -n "$M" ] && [ -n "$W0" ] && [ -n "$W1" ] && [ -n "$W2" ] || fail "thread ids: $(cat "$tmp/tids")"

# --- ltt dump --tid ---
for threads in 1 2; do
	"$LTT" dump --threads=$threads --tid="$W1" "$tmp/c" > "$tmp/d1" || fail "dump --tid=$W1"
	n=$(grep -c '^app\.data_int: ' "$tmp/d1")
	[ "$n" = $((2 * N)) ] || fail "dump --tid=W1 --threads=$threads: $n data_int, $((2 * N)) expected"
	# every line is about W1: its tid field (the first field, with the thread's name)
	bad=$(grep -vc "{ tid = $W1[ ,]" "$tmp/d1")
	[ "$bad" = 0 ] || fail "dump --tid=W1: $bad lines of another thread: $(grep -v "{ tid = $W1[ ,]" "$tmp/d1" | head -2)"
done
"$LTT" dump --tid="$W0,$W2" --tid="$M" --format=json "$tmp/c" > "$tmp/d2" || fail "dump --tid=W0,W2 --tid=M"
got=$(jq -r 'select(.event == "data_int" or .event == "printf") | "\(.fields.tid) \(.event)"' "$tmp/d2" | sort | uniq -c |
	awk '{ print $2, $3, $1 }' | sort)
want=$(printf '%s data_int %s\n%s data_int %s\n%s printf %s\n' "$W0" $N "$W2" $((3 * N)) "$M" $N | sort)
[ "$got" = "$want" ] || fail "dump --tid=W0,W2 --tid=M (json): got
$got
want
$want"
[ "$(jq -r '.fields.tid' "$tmp/d2" | grep -cv "^\($W0\|$W2\|$M\)\$")" = 0 ] || fail "dump --tid: other threads' events"
"$LTT" dump --tid="$W2" --limit 5 "$tmp/c" | grep -c "{ tid = $W2[ ,]" | grep -qx 5 || fail "--limit counts the events printed"
err=$("$LTT" dump --tid=abc "$tmp/c" 2>&1) && fail "--tid=abc accepted"
[ "$err" = "ltt dump: --tid abc: expected thread ids, comma-separated (--tid=101,102)" ] || fail "--tid=abc: $err"

# --- ltt stats --per-thread ---
"$LTT" stats --per-thread "$tmp/c" > "$tmp/s" || fail "stats --per-thread"
cat "$tmp/s"
# the count of EVENT in the section of thread TID
count() { awk -v t="$1" -v e="$2" '/^thread / { in_t = $2 == t; next } /^trace / { in_t = 0 } in_t && $1 == e { print $2 }' "$tmp/s"; }
k=1
for w in "$W0" "$W1" "$W2"; do
	[ "$(count "$w" app.data_int)" = $((k * N)) ] || fail "per-thread: $w data_int $(count "$w" app.data_int), $((k * N)) expected"
	[ "$(count "$w" app.region_enter)" = 1 ] || fail "per-thread: $w region_enter"
	[ "$(count "$w" app.region_leave)" = 1 ] || fail "per-thread: $w region_leave"
	[ "$(count "$w" app.printf)" = "" ] || fail "per-thread: $w printf"
	grep -q "^thread $w \"th0[1-3]:w$((k - 1))\" pid $M: " "$tmp/s" || fail "per-thread: $w's name and pid"
	k=$((k + 1))
done
[ "$(count "$M" app.printf)" = $N ] || fail "per-thread: main printf"
grep -q "^thread $M \"main\": " "$tmp/s" || fail "per-thread: main's name"
[ "$(grep -c '^thread ' "$tmp/s")" = 4 ] || fail "per-thread: not 4 threads"
# the events of each thread: the sum of its rows, and ltt sql's threads table's count
sql=$("$LTT" sql "$tmp/c" --format=csv -e "SELECT tid, events FROM threads ORDER BY tid" | tail -n +2 | tr ',' ' ')
ours=$(sed -n 's/^thread \([0-9]*\) .*: \([0-9]*\) events, .*/\1 \2/p' "$tmp/s")
[ "$sql" = "$ours" ] || fail "per-thread events differ from ltt sql's threads table: ours
$ours
sql
$sql"
sums=$(awk '/^thread / { t = $2 } /^  / { s[t] += $2 } END { for (t in s) print t, s[t] }' "$tmp/s" | sort -n)
[ "$sums" = "$ours" ] || fail "per-thread: rows do not sum to the thread's events"
# JSON: the same figures; --tid limits the threads
"$LTT" stats --per-thread --format=json --tid="$W2" "$tmp/c" > "$tmp/j" || fail "stats --per-thread --format=json"
[ "$(jq -r '.threads | length' "$tmp/j")" = 1 ] || fail "json --tid: not one thread"
w2_events=$(echo "$ours" | awk -v t="$W2" '$1 == t { print $2 }')
jq -r '.threads[0] | "\(.tid) \(.name) \(.pid) \(.by_event["app.data_int"]) \(.events)"' "$tmp/j" |
	grep -qx "$W2 th0[1-3]:w2 $M $((3 * N)) $w2_events" || fail "json --tid=W2: $(jq -c '.threads[0]' "$tmp/j")"
# --from: the events of each thread from W1's start on, as ltt sql counts them
f=$("$LTT" sql "$tmp/c" --format=csv -e "SELECT start_ns AS f FROM threads WHERE tid = $W1" | tail -n +2)
"$LTT" stats --per-thread --from "$((f / 1000000000)).$(printf %09d $((f % 1000000000)))" "$tmp/c" > "$tmp/sf" ||
	fail "stats --per-thread --from"
sql=$("$LTT" sql "$tmp/c" --format=csv -e "SELECT tid, count(*) AS n FROM events WHERE ts_ns >= $f AND tid IS NOT NULL
	GROUP BY tid ORDER BY tid" | tail -n +2 | tr ',' ' ')
ours=$(sed -n 's/^thread \([0-9]*\) .*: \([0-9]*\) events, .*/\1 \2/p' "$tmp/sf")
[ -n "$ours" ] && [ "$sql" = "$ours" ] || fail "per-thread --from: ours
$ours
sql
$sql"
err=$("$LTT" stats --tid=1 "$tmp/c" 2>&1) && fail "stats --tid without a report accepted"
err=$("$LTT" stats --region=x --per-thread "$tmp/c" 2>&1) && fail "--region without --profile accepted"

# --- ltt stats --profile limits ---
MS=300
LTT_TRACE="$tmp/p" LTT_STACK_SAMPLE_HZ=1000 "$prog" spin $MS > "$tmp/ptids" || fail "threads_prog spin"
A=$(awk '$1 == "alpha" { print $2 }' "$tmp/ptids") B=$(awk '$1 == "beta" { print $2 }' "$tmp/ptids")
sq() { "$LTT" sql "$tmp/p" --format=csv -e "$1" | tail -n +2; }
# samples (count, ticks) of the trace in the SQL condition $1 on s (core_stack_sample) and r (alpha's region)
samples() {
	sq "SELECT count(*) || ' ' || coalesce(sum(s.ticks), 0) FROM core_stack_sample s, regions r
	    WHERE r.label = 'alpha' AND $1"
}
header() { sed -n 's/^profile: \([0-9]*\) stack samples, \([0-9]*\) ticks.*/\1 \2/p' "$1"; }

"$LTT" stats --profile --region=alpha "$tmp/p" > "$tmp/pa" || fail "--profile --region=alpha"
head -2 "$tmp/pa"
grep -q ' 0 samples without a known stack' "$tmp/pa" || fail "samples without a known stack"
want=$(samples "s.tid = r.tid AND s.ts_ns BETWEEN r.ts_ns AND r.ts_ns + r.dur_ns")
[ "$(header "$tmp/pa")" = "$want" ] || fail "--region=alpha: $(header "$tmp/pa"), ltt sql: $want"
grep -q 'spin_outside\|spin_beta\|\[$B\]' "$tmp/pa" && fail "--region=alpha counted samples outside the region"
[ "$(grep -c '^thread ' "$tmp/pa")" = 1 ] && grep -q "^thread $A \"alpha\"" "$tmp/pa" || fail "--region=alpha: not alpha's thread only"
ticks=${want#* }
[ "$ticks" -ge $((MS * 7 / 10)) ] && [ "$ticks" -le $((MS * 13 / 10)) ] || fail "--region=alpha: $ticks ticks for $MS ms of CPU at 1000 Hz"
grep -q "spin_alpha" "$tmp/pa" || fail "--region=alpha: spin_alpha not found"

"$LTT" stats --profile --tid="$B" "$tmp/p" > "$tmp/pb" || fail "--profile --tid=B"
want=$(sq "SELECT count(*) || ' ' || sum(ticks) FROM core_stack_sample WHERE tid = $B")
[ "$(header "$tmp/pb")" = "$want" ] || fail "--tid=B: $(header "$tmp/pb"), ltt sql: $want"
grep -q 'spin_alpha\|spin_outside' "$tmp/pb" && fail "--tid=B counted alpha's samples"
[ "$(grep -c '^thread ' "$tmp/pb")" = 1 ] || fail "--tid=B: not one thread"

bounds=$(sq "SELECT printf('%d.%09d %d.%09d', ts_ns / 1000000000, ts_ns % 1000000000, (ts_ns + dur_ns) / 1000000000,
	(ts_ns + dur_ns) % 1000000000) AS b FROM regions WHERE label = 'alpha'")
"$LTT" stats --profile --from "${bounds% *}" --to "${bounds#* }" "$tmp/p" > "$tmp/pt" || fail "--profile --from --to"
want=$(samples "s.ts_ns BETWEEN r.ts_ns AND r.ts_ns + r.dur_ns")
[ "$(header "$tmp/pt")" = "$want" ] || fail "--from/--to: $(header "$tmp/pt"), ltt sql: $want"
grep -q 'spin_outside' "$tmp/pt" && fail "--from/--to counted samples after the range"
"$LTT" stats --profile "$tmp/p" > "$tmp/pall" || fail "--profile"
[ "$(header "$tmp/pall")" = "$(sq "SELECT count(*) || ' ' || sum(ticks) FROM core_stack_sample")" ] ||
	fail "--profile without limits: $(header "$tmp/pall")"
echo ok
