#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=chrome-json on the app trace of tests/progs/app_golden.c and on the trace set of
# tests/progs/app_child.c: the JSON parses (jq); per thread, "B"/"E" slices nest and their times never
# go back; the counts of slices, instants, counters and child slices equal ltt dump's events of each
# kind. Then the driver: an existing OUT is refused (untouched) without --force, replaced with it; a
# failed export leaves no OUT and no temporary file; dump's filters apply; a damaged trace gives the
# reader's problems, exit 1, and every good event.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/trace" ./app_golden >/dev/null)  # exits 3 on purpose
[ -d trace ] || { echo "app_golden wrote no trace"; exit 1; }
fail=0
"$LTT" export --format=chrome-json trace 2>err || { echo "export failed:"; cat err; exit 1; }
check "stderr" "$(cat err)" "ltt export: wrote trace.json (chrome-json)"
jq -e . trace.json >/dev/null || { echo "trace.json does not parse"; exit 1; }

# counts against ltt dump
"$LTT" dump --format=json trace > dump.json || exit 1
dn() { jq -s "[.[] | select($1)] | length" dump.json; }
jn() { jq "[.traceEvents[] | select($1)] | length" trace.json; }
check() { [ "$2" = "$3" ] || { echo "$1: export $2, dump $3"; fail=1; }; }
enter=$(dn '.event == "region_enter"')
check "B slices" "$(jn '.ph == "B"')" "$enter"
check "E ends" "$(jn '.ph == "E"')" "$(dn '.event == "region_leave"')"
check "X children" "$(jn '.ph == "X"')" "$(dn '.event == "child_exit"')"
check "C counters" "$(jn '.ph == "C"')" "$(dn '.event == "data_int" or .event == "counter"')"
check "i instants" "$(jn '.ph == "i" and .cat != "ltt"')" \
	"$(dn '.event != "region_enter" and .event != "region_leave" and .event != "child_exit"')"
[ "$enter" -ge 5 ] || { echo "only $enter regions in the app trace"; fail=1; }
check "region labels" "$(jq -r '.traceEvents[] | select(.ph == "B") | .cat + "/" + .name' trace.json | sort | tr '\n' ' ')" \
	"$(jq -r 'select(.event == "region_enter") | .fields.category + "/" + .fields.label' dump.json | sort | tr '\n' ' ')"
# names (the last "M" of each wins): main (the program), the two named threads, the command's name
check "thread names" "$(jq -r '[.traceEvents[] | select(.ph == "M" and .name == "thread_name")] | group_by(.tid)[] | last.args.name' trace.json | grep -v / | sort | tr '\n' ' ')" \
	"app_golden preload_thread preload_thread "
check "process name" "$(jq -r '[.traceEvents[] | select(.ph == "M" and .name == "process_name")] | last.args.name' trace.json)" "golden"
# nesting: per (pid, tid), depth never negative, 0 at the end, times non-decreasing
bad=$(jq -r '[.traceEvents[] | select(.ph == "B" or .ph == "E")] | group_by([.pid, .tid])[] |
	reduce .[] as $e ({d: 0, t: -1e18, bad: 0};
		.bad += (if $e.ts < .t then 1 else 0 end) | .t = $e.ts |
		.d += (if $e.ph == "B" then 1 else -1 end) | .bad += (if .d < 0 then 1 else 0 end)) |
	.bad + .d' trace.json | awk '{ s += $1 } END { print s + 0 }')
check "nesting errors" "$bad" 0
# a region's fields are its "E"'s args (its "B" has none, so that speedscope merges its frames): the
# E args are the region_enter fields, one for one
check "args" "$(jq -c '.traceEvents[] | select(.ph == "E") | .args' trace.json | sort)" \
	"$(jq -c 'select(.event == "region_enter") | .fields' dump.json | sort)"
check "B args" "$(jq '[.traceEvents[] | select(.ph == "B" and has("args"))] | length' trace.json)" 0

# the trace set of a parent and its two children: three processes, each child's slice in the parent
mkdir set && (cd "$BUILD/tests/progs" && LTT_TRACE="$work/set" ./app_child >/dev/null 2>&1)
"$LTT" export --format=chrome-json -o set.json set/* || { echo "export of the set failed"; fail=1; }
check "processes of the set" "$(jq '[.traceEvents[] | select(.name == "process_name") | .pid] | unique | length' set.json)" 3
check "child slices" "$(jq '[.traceEvents[] | select(.ph == "X")] | length' set.json)" 2
"$LTT" dump --format=json set/* > setdump.json
check "events of the set" "$(jq '[.traceEvents[] | select(.ph != "M" and .ph != "C" and .cat != "ltt")] | length' set.json)" \
	"$(wc -l < setdump.json | tr -d ' ')"

# a data_string whose value is a decimal integer is a counter value too; others are not
printf 'ev 0 1000 app.data_string 7 "f.c" 1 0 "cat" "depth" "42"\nev 0 2000 app.data_string 7 "f.c" 2 0 "cat" "depth" "x42"\nev 0 3000 app.data_string 7 "f.c" 3 0 "cat" "depth" "-3"\n' |
	"$BUILD/tests/progs/mktrace" -o ds -b 4096 -f "$SRCDIR/eventdefs/app.xml" -s - || exit 1
"$LTT" export --format=chrome-json ds || fail=1
check "numeric data_string counters" "$(jq -c '[.traceEvents[] | select(.ph == "C") | [.name, .args.value]]' ds.json)" '[["depth",42],["depth",-3]]'
check "data_string instants" "$(jq '[.traceEvents[] | select(.ph == "i")] | length' ds.json)" 3

# OUT exists: refused, untouched; --force replaces it
echo keep > trace.json
"$LTT" export --format=chrome-json trace 2>err; st=$?
check "exit with OUT existing" "$st" 1
check "existing OUT kept" "$(cat trace.json)" keep
grep -q 'trace.json exists' err || { echo "no message for an existing OUT:"; cat err; fail=1; }
"$LTT" export --format=chrome-json --force trace || { echo "--force failed"; fail=1; }
jq -e . trace.json >/dev/null || { echo "--force did not write the export"; fail=1; }
# --force never replaces a directory by a file (issue 28: it deleted whatever tree was there)
mkdir -p dir.json/sub && "$LTT" export --format=chrome-json --force -o dir.json trace 2>/dev/null &&
	{ echo "--force replaced a directory by the export"; fail=1; }
[ -d dir.json/sub ] || { echo "--force removed a directory"; fail=1; }
# a failed export leaves nothing; bad options exit 2
"$LTT" export --format=chrome-json -o nodir/x.json trace 2>/dev/null; check "exit writing into no directory" "$?" 1
[ -e nodir ] && { echo "nodir created"; fail=1; }
"$LTT" export --format=nosuch trace 2>/dev/null; check "exit for an unknown format" "$?" 2
"$LTT" export trace 2>/dev/null; check "exit without --format" "$?" 2
ls -a | grep -q 'tmp-' && { echo "temporary files left:"; ls -a; fail=1; }

# dump's filters
"$LTT" export --format=chrome-json -o f.json --event 'app.data*' --cpu 0 trace || fail=1
check "filtered instants" "$(jq '[.traceEvents[] | select(.ph == "i")] | length' f.json)" \
	"$("$LTT" dump --event 'app.data*' --cpu 0 trace | wc -l | tr -d ' ')"

# a damaged trace: the problems, exit 1, every good event exported
cp -r trace bad
tf=$(ls -S bad/cpu/* | head -n 1)	# the CPU the program ran on
size=$(wc -c < "$tf")
printf '\377\377\377\377' | dd of="$tf" bs=1 seek=$((size - 4)) conv=notrunc 2>/dev/null
"$LTT" dump --format=json bad > baddump.json 2>bad.dump.err
"$LTT" export --format=chrome-json bad 2>bad.all; st=$?
grep -v '^ltt export: wrote bad.json (chrome-json)$' bad.all > bad.err
check "exit for a damaged trace" "$st" 1
check "problems of a damaged trace" "$(sed 's/^ltt export/ltt dump/' bad.err)" "$(cat bad.dump.err)"
[ -s bad.err ] || { echo "no problem reported for the damaged trace"; fail=1; }
# every event but the region ends is a slice or an instant (a leave whose enter was lost too)
check "good events of the damaged trace" \
	"$(jq '[.traceEvents[] | select(.ph != "M" and .ph != "C" and .ph != "E" and .cat != "ltt" and .name != "app.region_leave")] | length' bad.json)" \
	"$(jq -s '[.[] | select(.event != "region_leave")] | length' baddump.json)"
exit $fail
