#!/bin/sh
# SPDX-License-Identifier: MIT
# Regions still open at the end of a flight snapshot (tests/progs/regions_open.c: a snapshot taken
# inside three nested regions, after one completed region): ltt sql's regions table has the completed
# one and the three open ones (open = 1, dur_ns and self_ns NULL, their depths and parents, ts_ns the
# time of their region_enter in the snapshot); ltt stats --regions lists them, as text and in its
# JSON's "open" array with the same starts; the rows export has the open column; chrome-json begins
# their slices at their enter and ends them at the end of the snapshot with "ltt_open": true.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
fail=0
check() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }; }

LTT_TRACE="$work/t" LTT_MODE=flight "$BUILD/tests/progs/regions_open" > prog.out || { echo "regions_open failed"; exit 1; }
snap=$(sed -n 's/^snapshot //p' prog.out)
[ -d "$snap" ] || { echo "no snapshot:"; cat prog.out; exit 1; }
[ "$(ls -d t/snapshot-* | wc -l)" = 1 ] || { echo "snapshots:"; ls t; fail=1; }
# the enter times, as ltt dump prints them: "LABEL TS_NS"
"$LTT" dump --format=json --event app.region_enter "$snap" |
	sed -n 's/.*"ts_ns":\([0-9]*\).*"label":"\([^"]*\)".*/\2 \1/p' > enter.txt
check "enters in the snapshot" "$(cut -d' ' -f1 enter.txt | tr '\n' ' ')" "done outer middle inner "
ts() { sed -n "s/^$1 //p" enter.txt; }
sq() { "$LTT" sql "$snap" --format=csv -e "$1" | tail -n +2; }

# ---- ltt sql
check "regions" "$(sq "SELECT label || ':' || open || ':' || ts_ns || ':' || depth || ':' || coalesce(dur_ns, 'null') || ':' ||
	coalesce(self_ns, 'null') AS r FROM regions WHERE open ORDER BY id" | tr '\n' ' ')" \
	"outer:1:$(ts outer):0:null:null middle:1:$(ts middle):1:null:null inner:1:$(ts inner):2:null:null "
check "completed" "$(sq "SELECT label || ':' || open || ':' || (dur_ns > 0) AS r FROM regions WHERE NOT open")" "done:0:1"
check "parents" "$(sq "SELECT count(*) FROM regions c JOIN regions p ON c.parent_id = p.id WHERE c.open AND p.open
	AND c.depth = p.depth + 1")" 2
"$LTT" export --format=rows --table regions -o regions.rows "$snap" 2>err || { cat err; exit 1; }
check "rows export open" "$(grep -c '"open":1' regions.rows) $(grep -c '"open":0' regions.rows)" "3 1"

# ---- ltt stats --regions
"$LTT" stats --regions "$snap" > stats.txt || exit 1
check "text" "$(sed -n '/^regions open at the end of the trace:$/,$p' stats.txt | sed 's/ since .*, depth/ depth/' | tail -n +2 |
	sed 's/ (tid [0-9]*)//' | tr '\n' '|')" \
	"  thread main: main/outer depth 0|  thread main: main/middle depth 1|  thread main: work/inner depth 2|"
check "text starts" "$(sed -n 's/.* since \([0-9]*\) ns .*/\1/p' stats.txt | tr '\n' ' ')" "$(ts outer) $(ts middle) $(ts inner) "
"$LTT" stats --regions --format=json "$snap" > stats.json || exit 1
check "json open" "$(jq -r '.open[] | "\(.label):\(.depth):\(.category)"' stats.json | tr '\n' ' ')" \
	"outer:0:main middle:1:main inner:2:work "
check "json starts" "$(grep -o '"start_ns":[0-9]*' stats.json | cut -d: -f2 | tr '\n' ' ')" "$(ts outer) $(ts middle) $(ts inner) "
check "json completed" "$(jq -r '[.overall[] | .label] | join(" ")' stats.json)" "done"

# ---- chrome-json
"$LTT" export --format=chrome-json -o s.json "$snap" 2>err || { cat err; exit 1; }
base=$(sed -n 's/.*"ltt_start_ns":\([0-9]*\).*/\1/p' s.json | head -n 1)
check "B at the enters" "$(jq -r '.traceEvents[] | select(.ph == "B") | "\(.name) \(.ts * 1000 | round)"' s.json | tr '\n' ' ')" \
	"$(while read -r l t; do printf '%s %s ' "$l" $((t - base)); done < enter.txt)"
check "E marked open" "$(jq -r '.traceEvents[] | select(.ph == "E" and .args.ltt_open == true) | .name' s.json | tr '\n' ' ')" \
	"inner middle outer "
check "E not open" "$(jq -r '.traceEvents[] | select(.ph == "E" and .args.ltt_open != true) | .name' s.json | tr '\n' ' ')" "done "
[ $fail -eq 0 ] && echo ok
exit $fail
