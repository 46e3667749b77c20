#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt stats --regions on a trace whose times are known (tests/progs/mktrace, 1 cycle = 1 ns): the
# exact text (durations in adaptive units, aligned columns, children, p50/p90/p99), the exact JSON
# figures, the JSON schema (jq), and the percentiles computed again by jq from the region events of
# `ltt dump --format=json`.
#
# Thread 100 (cpu 0): job/run (2.5 s) holds 100 job/work regions of i us (i = 1..100), each holding
# two job/step of 20 ns; after it, io/wait of 1.5 ms, 999999 ns and 999 ns. Thread 200 (cpu 1):
# job/work of 1 us and 3 us.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

ev() {	# ev CPU CYCLES enter|leave TID NESTING CATEGORY LABEL
	echo "ev $1 $2 app.region_$3 $4 \"t.c\" 1 $5 \"$6\" \"$7\" \"\""
}
{
	t0=1000
	ev 0 $t0 enter 100 0 job run
	i=1
	while [ $i -le 100 ]; do
		s=$((t0 + 10 + (i - 1) * 200000))
		ev 0 $s enter 100 1 job work
		ev 0 $((s + 100)) enter 100 2 job step
		ev 0 $((s + 120)) leave 100 2 job step
		ev 0 $((s + 200)) enter 100 2 job step
		ev 0 $((s + 220)) leave 100 2 job step
		ev 0 $((s + i * 1000)) leave 100 1 job work
		i=$((i + 1))
	done
	ev 0 $((t0 + 2500000000)) leave 100 0 job run
	s=$((t0 + 2500001000))
	ev 0 $s enter 100 0 io wait
	ev 0 $((s + 1500000)) leave 100 0 io wait
	s=$((s + 2000000))
	ev 0 $s enter 100 0 io wait
	ev 0 $((s + 999999)) leave 100 0 io wait
	s=$((s + 2000000))
	ev 0 $s enter 100 0 io wait
	ev 0 $((s + 999)) leave 100 0 io wait
	ev 1 2000 enter 200 0 job work
	ev 1 3000 leave 200 0 job work
	ev 1 5000 enter 200 0 job work
	ev 1 8000 leave 200 0 job work
} > script
"$BUILD/tests/progs/mktrace" -o t -c 2 -b 4096 -f "$SRCDIR/eventdefs/app.xml" -s script || { echo "mktrace failed"; exit 1; }

"$LTT" stats --regions t > out 2> err || { echo "ltt stats --regions failed"; cat err; exit 1; }
check "text output" "$(cat out)" "$(cat <<'EOF'
regions of thread tid:100 (tid 100):
  category label count children     total      self       min       p50       p90       p99       max
  io       wait      3        0    2.50ms    2.50ms     999ns    1.00ms    1.00ms    1.00ms    1.50ms
  job      run       1      100     2.50s     2.49s     2.50s     2.50s     2.50s     2.50s     2.50s
  job      step    200        0    4.00µs    4.00µs      20ns      20ns      20ns      20ns      20ns
  job      work    100      200    5.05ms    5.05ms    1.00µs   50.00µs   90.00µs   99.00µs  100.00µs

regions of thread tid:200 (tid 200):
  category label count children     total      self       min       p50       p90       p99       max
  job      work      2        0    4.00µs    4.00µs    1.00µs    1.00µs    1.00µs    1.00µs    3.00µs

regions of all threads:
  category label count children     total      self       min       p50       p90       p99       max
  io       wait      3        0    2.50ms    2.50ms     999ns    1.00ms    1.00ms    1.00ms    1.50ms
  job      run       1      100     2.50s     2.49s     2.50s     2.50s     2.50s     2.50s     2.50s
  job      step    200        0    4.00µs    4.00µs      20ns      20ns      20ns      20ns      20ns
  job      work    102      200    5.05ms    5.05ms    1.00µs   49.00µs   89.00µs   98.00µs  100.00µs
EOF
)"

"$LTT" stats --regions --format=json t > stats.json || { echo "ltt stats --regions --format=json failed"; exit 1; }
# the exact figures of the overall rows
check "JSON overall" "$(jq -r '.overall[] | [.category, .label, .count, .children, .total_ns, .self_ns, .min_ns,
	.median_ns, .p50_ns, .p90_ns, .p99_ns, .max_ns] | @tsv' stats.json)" "$(printf '%s\n' \
	"io	wait	3	0	2500998	2500998	999	999999	999999	999999	999999	1500000" \
	"job	run	1	100	2500000000	2494950000	2500000000	2500000000	2500000000	2500000000	2500000000	2500000000" \
	"job	step	200	0	4000	4000	20	20	20	20	20	20" \
	"job	work	102	200	5054000	5050000	1000	49000	49000	89000	98000	100000")"
check "JSON threads" "$(jq -r '.threads[] | [.trace, .tid, .thread, (.regions | length)] | @tsv' stats.json)" \
	"$(printf '0\t100\ttid:100\t4\n0\t200\ttid:200\t1')"

# The schema (doc/cli.md): exactly these keys, of these types, on every object.
jq -e '
	def region: type == "object" and (keys == (["category", "label", "count", "children", "total_ns", "self_ns",
		"min_ns", "median_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"] | sort)) and
		(.category | type == "string") and (.label | type == "string") and
		([.count, .children, .total_ns, .self_ns, .min_ns, .median_ns, .p50_ns, .p90_ns, .p99_ns, .max_ns] |
		 all(type == "number" and . >= 0 and . == floor)) and
		.min_ns <= .p50_ns and .p50_ns <= .p90_ns and .p90_ns <= .p99_ns and .p99_ns <= .max_ns and
		.median_ns == .p50_ns and .self_ns <= .total_ns;
	keys == ["lost", "open", "overall", "threads", "version"] and .version == 1 and
	(.lost | type == "object" and .events == 0 and .cut == 0) and
	(.open | type == "array" and all(type == "object" and keys == (["trace", "tid", "thread", "category", "label",
		"start_ns", "open_ns", "depth"] | sort))) and
	(.threads | type == "array" and all(type == "object" and keys == ["regions", "thread", "tid", "trace"] and
		(.trace | type == "number") and (.tid | type == "number") and (.thread | type == "string") and
		(.regions | type == "array" and length > 0 and all(region)))) and
	(.overall | type == "array" and all(region))' stats.json > /dev/null || { echo "JSON schema not met:"; cat stats.json; fail=1; }

# The percentiles again, by jq from the events of TRACE: a leave pairs with the enter of the same
# thread and nesting; the duration of rank floor(p * (n - 1) / 100) of the sorted durations. Rows as
# "category label count total min p50 p90 p99 max", and the same from ltt stats --regions.
by_jq() {
	"$LTT" dump --format=json --event 'app.region_*' "$1" |
	jq -rn '
	def pct($d; $p): $d[(($d | length) - 1) * $p / 100 | floor];
	# times from "time" ("S.NNNNNNNNN"): ts_ns is beyond the 53 bits of a jq number
	def ns: split(".") | map(tonumber);
	reduce (inputs | {e: .event, t: (.time | ns), k: "\(.fields.tid)/\(.fields.nesting)", c: .fields.category,
			  l: .fields.label}) as $x ({open: {}, d: []};
		if $x.e == "region_enter" then .open[$x.k] = $x.t
		else .open[$x.k] as $t0 | .d += [{c: $x.c, l: $x.l, d: (($x.t[0] - $t0[0]) * 1000000000 + $x.t[1] - $t0[1])}] end)
	| .d | group_by([.c, .l])[] | (map(.d) | sort) as $s
	| [.[0].c, .[0].l, ($s | length), ($s | add), $s[0], pct($s; 50), pct($s; 90), pct($s; 99), $s[-1]] | @tsv'
}
by_stats() {
	jq -r '.overall[] | [.category, .label, .count, .total_ns, .min_ns, .p50_ns, .p90_ns, .p99_ns, .max_ns] | @tsv' "$1"
}
by_jq t > want.tsv
by_stats stats.json > got.tsv
check "percentiles computed by jq from the events" "$(cat got.tsv)" "$(cat want.tsv)"
[ "$(wc -l < want.tsv)" -eq 4 ] || { echo "jq found $(wc -l < want.tsv) labels, want 4"; fail=1; }

# A program with regions of a known shape (tests/progs/regions_nest.c): counts and children exact,
# durations (wall time) ordered, percentiles as jq computes them from the events.
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/nest" ./regions_nest) || { echo "regions_nest failed"; exit 1; }
"$LTT" stats --regions --format=json nest > nest.json || { echo "ltt stats --regions --format=json nest failed"; exit 1; }
check "program: counts and children per thread" \
	"$(jq -r '.threads[] | .thread as $t | .regions[] | [$t, .category, .label, .count, .children] | @tsv' nest.json)" \
	"$(printf '%s\n' "main	main	all	1	0" \
		"th01:worker	work	inner	15	30" "th01:worker	work	leaf	30	0" "th01:worker	work	outer	3	15" \
		"th02:worker	work	inner	15	30" "th02:worker	work	leaf	30	0" "th02:worker	work	outer	3	15")"
check "program: counts and children overall" \
	"$(jq -r '.overall[] | [.category, .label, .count, .children] | @tsv' nest.json)" \
	"$(printf '%s\n' "main	all	1	0" "work	inner	30	60" "work	leaf	60	0" "work	outer	6	30")"
check "program: min <= p50 <= p90 <= p99 <= max <= total, self <= total" \
	"$(jq '[(.threads[].regions[], .overall[]) | select(.min_ns <= .p50_ns and .p50_ns <= .p90_ns and
		.p90_ns <= .p99_ns and .p99_ns <= .max_ns and .max_ns <= .total_ns and .self_ns <= .total_ns)] | length' nest.json)" 11
by_jq nest > want.tsv
by_stats nest.json > got.tsv
check "program: percentiles computed by jq from the events" "$(cat got.tsv)" "$(cat want.tsv)"
"$LTT" stats --regions nest > nest.txt || { echo "ltt stats --regions nest failed"; fail=1; }
check "program: text rows (category label count children)" "$(awk '$1 == "work" || $1 == "main" { print $1, $2, $3, $4 }' nest.txt)" \
	"$(printf '%s\n' "main all 1 0" "work inner 15 30" "work leaf 30 0" "work outer 3 15" "work inner 15 30" "work leaf 30 0" \
		"work outer 3 15" "main all 1 0" "work inner 30 60" "work leaf 60 0" "work outer 6 30")"
# every text line of a table has the width of its header (aligned columns; µ is one column)
sed 's/µ/u/g' nest.txt | awk '/^  category/ { w = length($0) } /^  / && length($0) != w { print "misaligned: " $0; bad = 1 } END { exit bad }' || fail=1

# A trace without regions: the overall header alone, and empty arrays in JSON.
echo "ev 0 1000 app.data_int 7 \"t.c\" 1 0 \"c\" \"k\" 1" | "$BUILD/tests/progs/mktrace" -o none -b 4096 \
	-f "$SRCDIR/eventdefs/app.xml" -s - || { echo "mktrace failed"; exit 1; }
check "no regions (text)" "$("$LTT" stats --regions none)" "$(printf 'regions of all threads:\n  category label count children  total   self    min    p50    p90    p99    max')"
check "no regions (JSON)" "$("$LTT" stats --regions --format=json none)" '{"version":1,"lost":{"events":0,"by_cause":{},"overwritten":0,"overwritten_blocks":0,"records":0,"kernel_events":0,"cut":0},"threads":[],"overall":[],"open":[]}'
[ $fail -eq 0 ] && echo ok
exit $fail
