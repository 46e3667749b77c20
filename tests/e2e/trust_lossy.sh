#!/bin/sh
# SPDX-License-Identifier: MIT
# Losses said where answers are read, and no interval paired across a loss (issue 34, points 1-3):
# tests/func/func_lossy.c calls inner() 200 times per outer() call, as fast as it can, with rings of 2
# blocks of 4 KiB per CPU, so that events are dropped (buffer_full); it times every outer() call itself.
# LTT_BLOCKING=0: the lossless mode (issue 34, point 4; on by default with function tracing) off.
# 1. ltt record says, after "trace written to", how many events were lost, the cause and the setting
#    that would have kept them: the count is ltt stats' lost; libltt alone (LTT_TRACE) says it on
#    stderr once, "ltt: DIR: N events lost: ...".
# 2. ltt stats --functions (text: a "lost:" line before the table; JSON: .lost), --regions, ltt dump
#    --format=calls (a "# lost N events ... on cpu/K" line where each loss is, a last "# lost:" line)
#    state the window's losses; the JSON counts equal ltt stats' lost.
# 3. no call spans a loss: calls open across one are counted apart (cut > 0, no duration), and every
#    call's duration, inner's and outer's, is at most the longest outer() the program measured (+10 %
#    and 50 us for the clocks); completed + cut inner calls never exceed the program's count.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
prog="$BUILD/tests/func/func_lossy_cyg"
[ -x "$prog" ] || { echo "FAIL: $prog not built (make check builds it)"; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq missing (make deps installs it)"; exit 1; }

# 0. exact, on a written trace (tests/progs/mktrace): f (0x1000) enters, g (0x2000) runs 100 ns, 10
#    events are lost on cpu/0, f exits (cut: no duration), f runs again 500 ns; a span of spantest
#    open across 5 events lost on cpu/1 is cut, the next one lasts 100 ns.
cat > fl.script <<'SCRIPT'
ev 0 1000 func.entry 100 4096
ev 0 1100 func.entry 100 8192
ev 0 1200 func.exit 100 8192
lost 0 1500 10 0
ev 0 2000 func.exit 100 4096
ev 0 3000 func.entry 100 4096
ev 0 3500 func.exit 100 4096
ev 1 3600 spantest.job_begin 100 1 a
lost 1 3700 5 2
ev 1 3800 spantest.job_end 100 1 0
ev 1 3900 spantest.job_begin 100 2 b
ev 1 4000 spantest.job_end 100 2 0
SCRIPT
"$BUILD/tests/progs/mktrace" -o fl -c 2 -f "$SRCDIR/eventdefs/func.xml" -f "$SRCDIR/tests/eventdefs/spantest.xml" \
	-s fl.script || exit 1
B=1700000000000000000
check "exact: functions json" "$("$LTT" stats --functions --format=json fl | jq -c '[.lost.events, .lost.cut,
	[.functions[] | [.function, .calls, .cut, .max_ns]]]')" '[15,1,[["0x1000",1,1,500],["0x2000",1,0,100]]]'
check "exact: sql calls" "$("$LTT" sql --format=csv fl -e "SELECT ts_ns - $B, dur_ns, cut FROM calls ORDER BY ts_ns" | tail -n +2 | tr '\n' ' ')" \
	"0,,1 100,100,0 2000,500,0 "
check "exact: sql spans" "$("$LTT" sql --format=csv fl -e "SELECT id, dur_ns, cut FROM spans" | tail -n +2 | tr '\n' ' ')" \
	"1,,1 2,100,0 "
check "exact: calls format" "$("$LTT" dump --format=calls fl | grep -c '(cut by a loss)')" 1
# py ARGS: Debian's python3 with the module of $BUILD (under ASan its runtime preloaded, as
# python_module.sh does; under TSan the Python checks are skipped: returns 77)
py() {
	case "${SANITIZE:-}" in
	*thread*) return 77 ;;
	*address*) LD_PRELOAD="$(${CC:-gcc} -print-file-name=libasan.so)" ASAN_OPTIONS="detect_leaks=0:abort_on_error=0" \
		PYTHONMALLOC=malloc PYTHONPATH="$BUILD/python" "${PYTHON:-/usr/bin/python3}" "$@" ;;
	*) PYTHONPATH="$BUILD/python" "${PYTHON:-/usr/bin/python3}" "$@" ;;
	esac
}
got=$(py -c "
import ltt
t = ltt.open('fl')
print(t.lost()['events'], t.lost()['by_cause'], t.lost($B + 2600, $B + 3000)['events'], t.lost($B + 600)['events'])")
[ $? = 77 ] || check "exact: Python's Trace.lost() and its window" "$got" "15 {'buffer_full': 10, 'nested': 5} 5 5"

# 1. the line at the end of the recording (a few runs until one loses: with 8 KiB rings it always does)
for i in 1 2 3; do
	LTT_BLOCKING=0 LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 "$LTT" record -o "$work/t$i" --functions -- "$prog" 20000 \
		> "$work/out$i" 2> "$work/err$i" || { echo "FAIL: record $i"; cat "$work/err$i"; exit 1; }
	lost=$("$LTT" stats --format=json "$work/t$i" | jq '[.. | objects | select(has("lost")) | .lost | numbers] | add // 0')
	[ "$lost" -gt 0 ] && break
done
t="$work/t$i"
[ "$lost" -gt 0 ] || { echo "FAIL: 3 runs with 8 KiB rings lost nothing"; exit 1; }
line=$(grep "^ltt record: $t: " "$work/err$i")
check "record: one loss line" "$(printf '%s\n' "$line" | grep -c .)" 1
check "record: its count" "$(printf '%s\n' "$line" | sed -n 's/.*: \([0-9]*\) events lost: .*/\1/p')" "$lost"
case "$line" in *"buffer_full (the program wrote faster than the consumer"*"LTT_BUFFER_SIZE"*) ;;
	*) echo "FAIL: record: the cause and the setting not said: $line"; fail=1 ;; esac
check "record: the loss line follows 'trace written to'" \
	"$(grep -n "trace written to\|events lost" "$work/err$i" | cut -d: -f1 | tr '\n' ' ')" \
	"$(grep -n "trace written to" "$work/err$i" | cut -d: -f1) $(grep -n "events lost" "$work/err$i" | cut -d: -f1) "
# libltt alone: on stderr, once
LTT_BLOCKING=0 LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 LTT_FUNCTIONS=1 LTT_TRACE="$work/env" "$prog" 20000 > /dev/null 2> "$work/env.err"
n=$(grep -c "^ltt: $work/env: [0-9]* events lost: " "$work/env.err")
check "libltt: one loss line" "$n" 1
elost=$("$LTT" stats --format=json "$work/env" | jq '[.. | objects | select(has("lost")) | .lost | numbers] | add // 0')
check "libltt: its count" "$(sed -n 's/.*: \([0-9]*\) events lost: .*/\1/p' "$work/env.err")" "$elost"
# nothing lost, nothing said
"$LTT" record -o "$work/big" --functions -- "$prog" 100 > /dev/null 2> "$work/big.err"
check "no loss: no line" "$(grep -c "events lost" "$work/big.err")" 0

# 2 and 3: the views
max=$(sed -n 's/.*max_outer_ns \([0-9]*\).*/\1/p' "$work/out$i")
inner=$(sed -n 's/.*inner \([0-9]*\).*/\1/p' "$work/out$i")
bound=$((max + max / 10 + 50000))
"$LTT" stats --functions "$t" > "$work/fn.txt" || { echo "FAIL: stats --functions"; exit 1; }
head -1 "$work/fn.txt" | grep -q "^lost: $lost events in this window (buffer_full $lost" ||
	{ echo "FAIL: stats --functions: no loss line first:"; head -2 "$work/fn.txt"; fail=1; }
"$LTT" stats --functions --format=json "$t" > "$work/fn.json" || { echo "FAIL: stats --functions json"; exit 1; }
check "functions json: lost.events" "$(jq .lost.events "$work/fn.json")" "$lost"
check "functions json: lost.by_cause" "$(jq .lost.by_cause.buffer_full "$work/fn.json")" "$lost"
cut=$(jq .lost.cut "$work/fn.json")
[ "$cut" -gt 0 ] || { echo "FAIL: no call cut by the losses"; fail=1; }
check "functions json: cut = sum of the functions' cut" "$(jq '[.functions[].cut] | add' "$work/fn.json")" "$cut"
longest=$(jq '[.functions[] | select(.function == "inner" or .function == "outer") | .max_ns] | max' "$work/fn.json")
[ "$longest" -le "$bound" ] ||
	{ echo "FAIL: a call of $longest ns, the program's longest outer() $max ns: paired across a loss"; fail=1; }
seen=$(jq '[.functions[] | select(.function == "inner") | .calls + .cut] | add' "$work/fn.json")
[ "$seen" -le "$inner" ] || { echo "FAIL: $seen inner calls, the program made $inner"; fail=1; }
# the calls format: a line where each loss is, no duration past the bound, the sum at the end
"$LTT" dump --format=calls "$t" > "$work/calls.txt" || { echo "FAIL: dump --format=calls"; exit 1; }
marks=$(grep -c "^# lost [0-9]* events (buffer_full) on cpu/" "$work/calls.txt")
records=$(jq .lost.records "$work/fn.json")
check "calls: a line per loss record" "$marks" "$records"
check "calls: the sum" "$(grep -c "^# lost: $lost events in this window" "$work/calls.txt")" 1
check "calls --follow: the same loss lines" "$("$LTT" dump --follow --format=calls "$t" | grep -c "^# lost [0-9]* events (buffer_full) on cpu/")" "$records"
check "calls: cut calls printed" "$(grep -c "cut by a loss" "$work/calls.txt" | awk '{print ($1 > 0)}')" 1
over=$(awk -v b="$bound" '/^ *[0-9.]+ us/ { d = $1 * 1000; if (d > b) n++ } END { print n + 0 }' "$work/calls.txt")
check "calls: durations within the program's longest outer()" "$over" 0
# every other analysis view: the line before its table, the JSON key (per trace for --per-thread)
for v in sched profile waits per-thread; do
	"$LTT" stats --$v "$t" | grep -q "^lost: $lost events in this window (buffer_full $lost" ||
		{ echo "FAIL: stats --$v: no loss line"; fail=1; }
done
check "sched json: lost.events" "$("$LTT" stats --sched --format=json "$t" | jq .lost.events)" "$lost"
check "waits json: lost.events" "$("$LTT" stats --waits --format=json "$t" | jq .lost.events)" "$lost"
check "per-thread json: lost.events" "$("$LTT" stats --per-thread --format=json "$t" | jq .lost.events)" "$lost"
# a window (--from/--to) states the losses inside it only
first=$("$LTT" sql --format=csv "$t" -e "SELECT min(ts_ns) FROM lost" | tail -1)
inwin=$("$LTT" sql --format=csv "$t" -e "SELECT sum(count) FROM lost WHERE ts_ns <= $first" | tail -1)
s0=$((first / 1000000000)); n0=$((first % 1000000000))
check "per-thread --to: the window's losses" \
	"$("$LTT" stats --per-thread --format=json --to "$s0.$(printf %09d $n0)" "$t" | jq .lost.events)" "$inwin"

# ltt sql: the calls table's cut rows, the lost table's windows
sq() { "$LTT" sql --format=csv "$1" -e "$2" | tail -n +2; }
check "sql calls: cut rows = stats' cut" "$(sq "$t" "SELECT count(*) FROM calls WHERE cut = 1")" "$cut"
check "sql calls: cut rows have no duration" "$(sq "$t" "SELECT count(*) FROM calls WHERE cut = 1 AND dur_ns IS NOT NULL")" 0
check "sql lost: the counts" "$(sq "$t" "SELECT sum(count) FROM lost")" "$lost"
check "sql lost: windows (from_ns <= ts_ns)" "$(sq "$t" "SELECT count(*) FROM lost WHERE from_ns IS NULL OR from_ns > ts_ns")" 0

# regions (tests/progs/regions_many): the line, the key, the sql rows
LTT_BLOCKING=0 LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2 LTT_TRACE="$work/rg" "$BUILD/tests/progs/regions_many" 200000 2> "$work/rg.err"
rlost=$("$LTT" stats --format=json "$work/rg" | jq '[.. | objects | select(has("lost")) | .lost | numbers] | add // 0')
if [ "$rlost" -gt 0 ]; then
	"$LTT" stats --regions "$work/rg" | head -1 | grep -q "^lost: $rlost events in this window (buffer_full" ||
		{ echo "FAIL: stats --regions: no loss line first"; fail=1; }
	"$LTT" stats --regions --format=json "$work/rg" > "$work/rg.json"
	check "regions json: lost.events" "$(jq .lost.events "$work/rg.json")" "$rlost"
	check "sql regions: cut rows = stats' cut" "$(sq "$work/rg" "SELECT count(*) FROM regions WHERE cut = 1")" \
		"$(jq .lost.cut "$work/rg.json")"
	check "sql regions: cut rows have no duration" \
		"$(sq "$work/rg" "SELECT count(*) FROM regions WHERE cut = 1 AND dur_ns IS NOT NULL")" 0
else
	echo "note: regions_many lost nothing with 8 KiB rings (nothing to check for --regions)"
fi

exit $fail
