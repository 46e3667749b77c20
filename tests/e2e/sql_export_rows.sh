#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=rows: JSON Lines of ltt sql's tables, host and trace on every row, integer
# ts_ns, fields as a JSON string holding ltt dump --format=json's object; each table's rows equal
# ltt sql's (same values, same order), the per-type tables (FACILITY_EVENT) too; --table checked; --schema's columns match the rows' keys.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
G="$SRCDIR/tests/golden/reader"
MK="$BUILD/tests/progs/mktrace"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
command -v jq > /dev/null || { echo "jq missing: make deps installs it"; exit 1; }
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/app" ./app_golden) > /dev/null	# exits 3 on purpose
cd "$work" || exit 1
"$MK" -o ty -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || exit 1
fail=0

"$LTT" export --format=rows ty 2> err || { echo "export failed"; cat err; fail=1; }
[ -f ty.jsonl ] || { echo "no ty.jsonl"; exit 1; }
[ "$(wc -l < ty.jsonl)" = "$("$LTT" dump ty | wc -l)" ] || { echo "events: $(wc -l < ty.jsonl) rows"; fail=1; }
jq -c '.fields | fromjson' ty.jsonl > rows.fields || { echo "fields do not parse"; fail=1; }
"$LTT" dump --format=json ty | jq -c '.fields' > dump.fields
cmp -s rows.fields dump.fields || { echo "fields differ from ltt dump:"; diff dump.fields rows.fields; fail=1; }
[ "$(jq -r '[.host, .trace, (.ts_ns | type), .tracefile, (.cpu | tostring), .facility, .event] | join(" ")' ty.jsonl | sed -n 3p)" = \
	"mktrace ty number cpu/1 1 types scalars" ] || { echo "row 3:"; sed -n 3p ty.jsonl; fail=1; }
[ "$(sed -n 1p ty.jsonl | cut -c1-102)" = '{"host":"mktrace","trace":"ty","ts_ns":1700000000000000500,"tracefile":"control/processes","cpu":null,' ] ||
	{ echo "row 1:"; sed -n 1p ty.jsonl; fail=1; }

# long values (JSON of more than 64 KiB: written in pieces), quotes and backslashes, bytes that are
# not UTF-8: the fields still parse to ltt dump's
big=$(head -c 12000 /dev/zero | tr '\0' '\200')
printf 'ev 0 2000 types.text "a\\"b\\\\c %s" TEN\nev 0 2001 types.nested 1 2 3 4 5 6 2 "%s" "%s" 1 "u" 7 8\n' \
	"$big" "$big" "$big" | "$MK" -o long -b 1048576 -f "$G/types.xml" -s - || exit 1
"$LTT" export --format=rows -o - long | jq -c '.fields | fromjson' > long.rows || { echo "long: rows do not parse"; fail=1; }
"$LTT" dump --format=json long | jq -c .fields > long.dump
[ "$(wc -l < long.rows)" = 2 ] && cmp -s long.rows long.dump || { echo "long values differ from ltt dump"; fail=1; }

# every table: the rows of ltt sql, with host first and trace (traces: name) second
for spec in "app regions" "app threads" "app processes" "app traces" "ty lost" "ty traces" "app events"; do
	set -- $spec
	"$LTT" export --format=rows --table "$2" -o "$1-$2.jsonl" "$1" 2> err || { echo "export --table $2 failed"; cat err; fail=1; }
	case $2 in
	traces) key=name ;;
	*) key=trace ;;
	esac
	host=$("$LTT" sql "$1" --format=csv -e 'SELECT host FROM traces' | tail -n 1)
	"$LTT" sql "$1" --format=json -e "SELECT * FROM $2" |
		jq -c --arg h "$host" --arg k "$key" '{host: $h, trace: .[$k]} + del(.[$k])' > want.jsonl
	jq -c . "$1-$2.jsonl" > got.jsonl
	[ -s want.jsonl ] || { echo "$1 $2: no rows"; fail=1; }
	cmp -s want.jsonl got.jsonl || { echo "$1 --table $2 differs from ltt sql:"; diff want.jsonl got.jsonl | head; fail=1; }
	# the keys are the columns of ltt sql --schema sqlite, in order
	cols=$("$LTT" sql --schema sqlite | sed -n "/^CREATE TABLE $2 (/,/^);/p" | sed -n 's/^    \([a-z_0-9]*\) .*/\1/p' | tr '\n' ' ')
	keys=$(head -n 1 "$1-$2.jsonl" | jq -r 'keys_unsorted | join(" ")')
	[ "$cols" = "$keys " ] || { echo "$2: schema columns '$cols', row keys '$keys'"; fail=1; }
done

# a per-type table (FACILITY_EVENT, "any table of ltt sql"): the rows of ltt sql, every typed column
for t in types_scalars types_nested types_text types_empty; do
	"$LTT" export --format=rows --table "$t" -o "ty-$t.jsonl" ty 2> err || { echo "export --table $t failed"; cat err; fail=1; }
	"$LTT" sql ty --format=json -e "SELECT * FROM $t" | jq -c '{host: "mktrace", trace: .trace} + del(.trace)' > want.jsonl
	jq -c . "ty-$t.jsonl" > got.jsonl
	[ "$(wc -l < want.jsonl)" = "$("$LTT" dump --event "types.${t#types_}" ty | wc -l)" ] || { echo "$t: rows"; fail=1; }
	cmp -s want.jsonl got.jsonl || { echo "ty --table $t differs from ltt sql:"; diff want.jsonl got.jsonl | head; fail=1; }
done
"$LTT" export --format=rows --table types_nope -o nope.jsonl ty 2> err; rc=$?
[ $rc = 1 ] && [ "$(cat err)" = "ltt export: --table types_nope: no such table in these traces (ltt sql --tables TRACE... lists them)" ] ||
	{ echo "--table types_nope: exit $rc"; cat err; fail=1; }
[ ! -e nope.jsonl ] && [ "$(ls -a | grep -c '^\.nope')" = 0 ] || { echo "--table types_nope left a file"; ls -a; fail=1; }
"$LTT" export --format=rows --table 'no pe' ty 2> err; rc=$?
[ $rc = 2 ] && [ "$(cat err)" = "ltt export: --table no pe: expected events, another table of ltt sql (regions, spans, threads, ...) or a per-type table FACILITY_EVENT (ltt sql --tables TRACE lists them)" ] ||
	{ echo "--table 'no pe': exit $rc"; cat err; fail=1; }
"$LTT" export --format=chrome-json --table events ty 2> err; rc=$?
[ $rc = 2 ] && [ "$(cat err)" = "ltt export: --table is an option of --format=rows only" ] || { echo "--table with chrome-json: exit $rc"; cat err; fail=1; }
"$LTT" sql --schema clickhouse | grep -q '^) ENGINE = MergeTree ORDER BY (host, ts_ns);$' || { echo "clickhouse schema"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
