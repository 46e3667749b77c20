#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql on the type-rich synthetic trace (tests/golden/reader/types.xml, every type of the format,
# two CPUs and a control file): every table's row count equals ltt dump's, typed columns hold the
# dumped values, fields is the JSON of ltt dump --format=json and parses, lost and traces equal ltt
# stats, csv and json output, stdin statements, .tables/.schema, --save.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty
fail=0
q() { "$LTT" sql ty --format=csv -e "$1" 2>err | tail -n +2; }
eq() {	# eq WHAT GOT WANT
	[ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fail=1; }
}

# row counts: events and each per-type table against ltt dump
eq "events rows" "$(q 'SELECT count(*) FROM events')" "$("$LTT" dump ty | wc -l)"
for ev in empty scalars text nested; do
	eq "types_$ev rows" "$(q "SELECT count(*) FROM types_$ev")" "$("$LTT" dump --event "types.$ev" ty | wc -l)"
	eq "events $ev rows" "$(q "SELECT count(*) FROM events WHERE event = '$ev'")" \
		"$("$LTT" dump --event "types.$ev" ty | wc -l)"
done
eq ".tables" "$("$LTT" sql ty -e .tables | tr '\n' ' ')" \
	"events types_empty types_scalars types_text types_nested regions threads processes lost traces thread_states syscalls io calls spans "
# --tables TRACE: the same tables, each with its columns as .schema declares them
eq "--tables names" "$("$LTT" sql --tables ty | sed 's/(.*//' | tr '\n' ' ')" "$("$LTT" sql ty -e .tables | tr '\n' ' ')"
eq "--tables columns" "$("$LTT" sql --tables ty | sed 's/^\([a-z_]*\)(/CREATE TABLE \1(/; s/$/;/')" "$("$LTT" sql ty -e .schema)"

# fields: the JSON of ltt dump --format=json, valid for SQLite's JSON functions
"$LTT" dump --format=json ty | sed 's/.*"fields"://; s/}$//' > dump.fields
q 'SELECT fields FROM events' | sed 's/^"//; s/"$//; s/""/"/g' > sql.fields
cmp -s dump.fields sql.fields || { echo "fields differ from ltt dump --format=json:"; diff dump.fields sql.fields; fail=1; }
eq "json_valid" "$(q 'SELECT count(*) FROM events WHERE json_valid(fields)')" 9
eq "json_extract" "$(q "SELECT json_extract(fields, '\$.arr[1].hi') FROM events WHERE event = 'nested' LIMIT 1")" -4

# typed columns: the values of types.script as ltt dump prints them
eq "scalars" "$(q 'SELECT u8, i16, u32, i64, l, m, f, d, typeof(f), cpu, tracefile FROM types_scalars ORDER BY ts_ns LIMIT 1')" \
	"255,-2,4000000000,-9000000000000000000,-5,7,1.5,-0.25,real,1,cpu/1"
eq "scalars sums" "$(q 'SELECT sum(u8), sum(i16), avg(u32) FROM types_scalars')" "255,-2,2000000000.0"
eq "text" "$("$LTT" sql ty --format=json -e 'SELECT s, e, cpu FROM types_text ORDER BY ts_ns')" \
'{"s":"control event","e":"ZERO","cpu":null}
{"s":"hello \"world\"\n","e":"TEN","cpu":0}
{"s":"","e":3,"cpu":0}'
eq "nested" "$("$LTT" sql ty --format=json -e 'SELECT arr, seq, u, inner_lo, inner_hi FROM types_nested ORDER BY ts_ns')" \
'{"arr":"[{\"lo\":1,\"hi\":2},{\"lo\":3,\"hi\":-4},{\"lo\":5,\"hi\":6}]","seq":"[\"a\",\"bc\"]","u":"{\"str\":\"union string\"}","inner_lo":65535,"inner_hi":-32768}
{"arr":"[{\"lo\":0,\"hi\":0},{\"lo\":0,\"hi\":0},{\"lo\":0,\"hi\":0}]","seq":"[]","u":"{\"num\":4294967295}","inner_lo":9,"inner_hi":-9}'
eq "ts_ns" "$(q 'SELECT ts_ns FROM types_empty ORDER BY ts_ns')" "1700000000000001000
1700000002999999000"

# push-down constraints give the same rows as the filters of ltt dump
eq "cpu = 0" "$(q 'SELECT count(*) FROM events WHERE cpu = 0')" "$("$LTT" dump --cpu 0 ty | wc -l)"
eq "tracefile" "$(q "SELECT count(*) FROM events WHERE tracefile = 'control/processes'")" 1
eq "time range" "$(q 'SELECT count(*) FROM events WHERE ts_ns BETWEEN 1700000000000001200 AND 1700000002999999000')" \
	"$("$LTT" dump --from 1700000000.0000012 --to 1700000002.999999 ty | wc -l)"
eq "ts >" "$(q 'SELECT count(*) FROM events WHERE ts_ns > 1700000000000001300 AND ts_ns < 1700000002999999001')" 2
eq "facility/event" "$(q "SELECT count(*) FROM events WHERE facility = 'types' AND event IN ('text', 'empty')")" 5
eq "no such trace" "$(q "SELECT count(*) FROM events WHERE trace = 'nope'")" 0

# lost and traces against ltt stats
eq "lost" "$(q "SELECT sum(count) FROM lost WHERE cause != 'blocks_lost'")" \
	"$("$LTT" stats ty | sed -n 's/^  lost *\([0-9]*\) events.*/\1/p')"
eq "lost rows" "$(q 'SELECT tracefile, count, cause FROM lost ORDER BY ts_ns')" "cpu/1,40,blocks_lost
cpu/0,3,buffer_full
cpu/0,2,nested"
eq "traces" "$(q 'SELECT name, host, start_ns, end_ns, events, lost FROM traces')" \
	"ty,mktrace,1700000000000000000,1700000002999999001,$("$LTT" stats ty | sed -n 's/^  events *\([0-9]*\) .*/\1/p'),5"

# two traces: rows of each, named as given
cp -r ty ty2
eq "two traces" "$("$LTT" sql ty ty2 --format=csv -e 'SELECT trace, count(*) FROM types_text GROUP BY trace' | tail -n +2)" "ty,3
ty2,3"

# statements from stdin, several per line and over lines; dot commands
printf 'SELECT count(*) AS n FROM types_text;\nSELECT 1 +\n 1 AS two;\n.schema types_text\n' |
	"$LTT" sql --format=csv ty > stdin.out 2>&1
eq "stdin" "$(cat stdin.out)" 'n
3
two
2
CREATE TABLE types_text(ts_ns INTEGER, trace TEXT, tracefile TEXT, cpu INTEGER, tid INTEGER, "s" TEXT, "e" TEXT);'
# csv quoting
eq "csv" "$("$LTT" sql ty --format=csv -e "SELECT s FROM types_text WHERE cpu = 0 ORDER BY ts_ns LIMIT 1")" 's
"hello ""world""
"'
# table format
"$LTT" sql ty -e 'SELECT event, count(*) AS n FROM events GROUP BY event ORDER BY event' > table.out
eq "table" "$(cat table.out)" 'event    n
-------  -
empty    2
nested   2
scalars  2
text     3'

# --save: the same rows from a plain SQLite file
"$LTT" sql ty --save saved.db || { echo "--save failed"; fail=1; }
[ -s saved.db ] && [ ! -e saved.db.tmp ] || { echo "--save wrote no file"; fail=1; }
"$LTT" sql ty -e "ATTACH 'saved.db' AS s" -e "SELECT (SELECT count(*) FROM s.events), (SELECT count(*) FROM s.types_nested), (SELECT sum(u8) FROM s.types_scalars), (SELECT group_concat(cause) FROM s.lost)" --format=csv > save.out 2>&1
eq "--save" "$(tail -n 1 save.out)" '9,2,255,"blocks_lost,buffer_full,nested"'

[ -s err ] && { echo "unexpected stderr:"; cat err; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
