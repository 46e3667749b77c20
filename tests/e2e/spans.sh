#!/bin/sh
# SPDX-License-Identifier: MIT
# Spans declared by a facility (<span>, doc/eventdefs.md "Spans"): tests/progs/spans_prog.c records
# the spans of tests/eventdefs/spantest.xml, of known shape (its header says which). The trace's
# eventdefs/spantest.xml keeps the declarations; ltt sql's spans table has exactly 105 + 2 closed
# spans, 2 open, 2 ends without a begin; every closed span's begin and end are the begin and end
# events of its key (the per-type tables: their times, dur_ns their difference), job 7's two spans
# nest, job 3 begins on the main thread and ends on another, each worker's 25 jobs are on its thread;
# `ltt export --format=rows --table spans` gives the same rows; chrome-json draws each span as a B/E
# pair on lanes of their own (balanced per lane, the same begin and end times, open spans begun at
# their begin), and the perfetto export decodes with one slice per span.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
fail=0
check() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }; }

LTT_TRACE="$work/t" "$BUILD/tests/progs/spans_prog" > prog.out || { echo "spans_prog failed"; exit 1; }
[ -d t ] || { echo "no trace"; exit 1; }
main=$(sed -n 's/^main //p' prog.out)
cross=$(sed -n 's/^cross //p' prog.out)
workers=$(sed -n 's/^worker //p' prog.out | sort -n | tr '\n' ' ')
sq() { "$LTT" sql t --format=csv -e "$1" | tail -n +2; }

check "declarations in the trace" "$(grep -c '<span ' t/eventdefs/spantest.xml)" 2

# ---- the spans table
check "rows by name and state" "$(sq "SELECT name || ':' || open || ':' || (ts_ns IS NULL) || ':' || count(*) FROM spans
	GROUP BY name, open, ts_ns IS NULL ORDER BY 1" | tr '\n' ' ')" "job:0:0:105 job:0:1:1 job:1:0:1 req:0:0:2 req:0:1:1 req:1:0:1 "
check "unmatched ends" "$(sq "SELECT group_concat(name || '=' || key, ' ') FROM spans WHERE ts_ns IS NULL")" "job=42 req=zeta"
check "open spans" "$(sq "SELECT group_concat(name || '=' || key || ':' || (end_ns IS NULL) || (dur_ns IS NULL), ' ')
	FROM spans WHERE open")" "job=9:11 req=gamma:11"
# every closed job but 7 (two spans) against the events of its key in the per-type tables
check "jobs paired by key" "$(sq "SELECT count(*) FROM spans s JOIN spantest_job_begin b ON s.key = CAST(b.id AS TEXT)
	JOIN spantest_job_end e ON e.id = b.id WHERE s.name = 'job' AND s.key != '7' AND NOT s.open
	AND s.ts_ns = b.ts_ns AND s.end_ns = e.ts_ns AND s.dur_ns = e.ts_ns - b.ts_ns AND s.tid = b.tid AND s.end_tid = e.tid")" 103
check "open job at its begin" "$(sq "SELECT count(*) FROM spans s JOIN spantest_job_begin b ON b.id = 9 WHERE s.key = '9' AND s.ts_ns = b.ts_ns")" 1
check "reqs paired by key" "$(sq "SELECT count(*) FROM spans s JOIN spantest_req_open b ON s.key = b.req
	JOIN spantest_req_close e ON e.req = b.req WHERE s.name = 'req' AND NOT s.open
	AND s.ts_ns = b.ts_ns AND s.end_ns = e.ts_ns AND s.dur_ns = e.ts_ns - b.ts_ns")" 2
check "end fields (status = 10 x id)" "$(sq "SELECT count(*) FROM spans WHERE name = 'job' AND NOT open AND ts_ns IS NOT NULL
	AND json_extract(end_fields, '\$.status') = 10 * CAST(key AS INTEGER)
	AND json_extract(begin_fields, '\$.what') = 'job-' || key")" 105
# job 7 nests: the later begin ends first, inside the other
check "job 7 nested" "$(sq "SELECT count(*) FROM spans o JOIN spans i ON o.key = '7' AND i.key = '7' AND i.id = o.id + 1
	WHERE i.ts_ns > o.ts_ns AND i.end_ns < o.end_ns")" 1
check "job 1 and 2 overlap" "$(sq "SELECT count(*) FROM spans a JOIN spans b ON a.key = '1' AND b.key = '2' AND a.name = 'job'
	AND b.name = 'job' WHERE b.ts_ns > a.ts_ns AND b.ts_ns < a.end_ns AND b.end_ns > a.end_ns")" 1
check "job 3 across threads" "$(sq "SELECT tid || ' ' || end_tid FROM spans WHERE name = 'job' AND key = '3'")" "$main $cross"
check "workers' jobs" "$(sq "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM spans WHERE CAST(key AS INTEGER) >= 1000
	AND tid = end_tid GROUP BY tid ORDER BY tid)")" "25 25 25 25"
check "workers' tids" "$(sq "SELECT DISTINCT tid FROM spans WHERE CAST(key AS INTEGER) >= 1000 ORDER BY 1" | tr '\n' ' ')" "$workers"
check "ids" "$(sq "SELECT count(DISTINCT id) || ' ' || min(id) || ' ' || max(id) FROM spans")" "109 1 109"

# ---- the rows export: the same rows
"$LTT" export --format=rows --table spans -o spans.rows t 2>err || { cat err; exit 1; }
python3 -c 'import json, sys
cols = ("ts_ns", "end_ns", "dur_ns", "tid", "end_tid", "facility", "name", "key", "open", "begin_fields", "end_fields", "id")
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("|".join("" if r[c] is None else str(r[c]) for c in cols))' spans.rows | sort > rows.txt
"$LTT" sql t --format=csv -e "SELECT coalesce(ts_ns, '') || '|' || coalesce(end_ns, '') || '|' || coalesce(dur_ns, '') || '|' ||
	coalesce(tid, '') || '|' || coalesce(end_tid, '') || '|' || facility || '|' || name || '|' || key || '|' || open || '|' ||
	coalesce(begin_fields, '') || '|' || coalesce(end_fields, '') || '|' || coalesce(id, '') AS r FROM spans" |
	tail -n +2 | sed 's/^"//; s/"$//; s/""/"/g' | sort > sql.txt
check "rows export lines" "$(wc -l < rows.txt | tr -d ' ')" 111
cmp -s rows.txt sql.txt || { echo "rows export differs from ltt sql:"; diff rows.txt sql.txt | head; fail=1; }

# ---- chrome-json: span lanes
"$LTT" export --format=chrome-json -o t.json t 2>err || { cat err; exit 1; }
base=$(sed -n 's/.*"ltt_start_ns":\([0-9]*\).*/\1/p' t.json | head -n 1)
lanes='select(.tid >= 2145386496 and .tid < 2146435072)'	# TL_SPAN_TID_BASE .. TL_CPU_TID_BASE
check "span lane names" "$(jq -r ".traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\") | $lanes | .args.name" t.json |
	sort | tr '\n' ' ')" "spantest.job spantest.job 2 spantest.job 3 spantest.req spantest.req 2 "
bad=$(jq -r '[.traceEvents[] | select(.ph == "B" or .ph == "E")] | group_by([.pid, .tid])[] |
	reduce .[] as $e ({s: [], bad: 0};
		if $e.ph == "B" then .s += [$e.name]
		elif (.s | length) > 0 and .s[-1] == $e.name then .s |= .[:-1]
		else .bad += 1 end) | .bad + (.s | length)' t.json | awk '{ s += $1 } END { print s + 0 }')
check "B/E not balanced by name per lane" "$bad" 0
check "B per span" "$(jq -r ".traceEvents[] | select(.ph == \"B\") | $lanes | .name" t.json | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" \
	"job=106 req=3 "
# begin and end of each slice (ns since the base) against the table's closed spans and open ones' begins
jq -r "[.traceEvents[] | select(.ph == \"B\" or .ph == \"E\") | $lanes] | group_by(.tid)[] |
	reduce .[] as \$e ({b: null, out: []}; if \$e.ph == \"B\" then .b = (\$e.ts * 1000 | round)
		else .out += [\"\\(.b) \\(\$e.ts * 1000 | round)\"] end) | .out[]" t.json | sort > slices.txt
sq "SELECT (ts_ns - $base) || ' ' || (end_ns - $base) FROM spans WHERE NOT open AND ts_ns IS NOT NULL" | sort > closed.txt
check "closed spans as slices" "$(comm -23 closed.txt slices.txt | wc -l | tr -d ' ')" 0
check "open spans as slices from their begin" "$(comm -13 closed.txt slices.txt | cut -d' ' -f1 | tr '\n' ' ')" \
	"$(sq "SELECT ts_ns - $base FROM spans WHERE open" | sort | tr '\n' ' ')"

# ---- perfetto: decodes, one slice per span (no regions in this program), balanced
P="$SRCDIR/tests/export"
"$LTT" export --format=perfetto -o t.pftrace t 2>err || { cat err; exit 1; }
protoc --proto_path="$P" --decode=perfetto.protos.Trace perfetto.proto < t.pftrace > pf.txt 2> pf.err ||
	{ echo "protoc cannot decode:"; cat pf.err; exit 1; }
awk -f "$P/check_perfetto.awk" pf.txt > pf.sum
grep '^check:' pf.sum && fail=1
check "perfetto slices" "$(tail -n 1 pf.sum | awk '{ for (i = 1; i < NF; i++) if ($i == "begins" || $i == "ends") printf "%s=%s ", $i, $(i + 1) }')" \
	"begins=109 ends=109 "

[ $fail -eq 0 ] && echo ok
exit $fail
