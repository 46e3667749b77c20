#!/bin/sh
# SPDX-License-Identifier: MIT
# doc/fleet.md's DuckDB route (issue 29, point 4), run as written: its sh block (the schema of ltt sql
# --schema duckdb, ltt export --format=rows per table and packed trace) and its SQL block (COPY into
# the tables, the questions) through DuckDB itself (npm @duckdb/node-api, installed by make deps or
# here with mk/npm.sh; tests/e2e/lib/duckdb_run.js is the `duckdb DB < SQL` command), on two packed
# traces of tests/progs/threads_prog.c that lost nothing: lost.jsonl is empty. Every statement runs;
# the COPY counts are the rows written; the answers equal ltt sql's (events and lost per trace, the
# p99 of a region's durations by ltt sql's percentile(), the average of a field). Control: the old
# route (CREATE TABLE lost AS SELECT * FROM read_json('lost.jsonl')) fails on the empty table.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}" "${NPM_DIR:?}" "${NPM_PKGS:?}"
sh "$SRCDIR/mk/npm.sh" "$NPM_DIR" $NPM_PKGS || exit 1
export NPM_DIR
tmp=$(mktemp -d /tmp/ltt-e2e-duckdb-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/bin" "$tmp/w/traces"
printf '#!/bin/sh\nexec node "%s/tests/e2e/lib/duckdb_run.js" "$@"\n' "$SRCDIR" > "$tmp/bin/duckdb"
chmod +x "$tmp/bin/duckdb"
ln -s "$(cd "$(dirname "$LTT")" && pwd)/$(basename "$LTT")" "$tmp/bin/ltt"
PATH="$tmp/bin:$PATH"

for n in a b; do
	LTT_TRACE="$tmp/$n" "$BUILD/tests/progs/threads_prog" count 200 > /dev/null || fail "threads_prog"
	"$LTT" pack "$tmp/$n" -o "$tmp/w/traces/$n.tar.gz" > /dev/null 2>&1 || fail "ltt pack"
done

# the doc's blocks: the sh one, and the SQL one with the doc's example names turned into this trace's
# (region label count, the app facility's data_int events and their value field)
sec=$(sed -n "/^## One analyst's laptop: DuckDB/,/^## /p" "$SRCDIR/doc/fleet.md")
echo "$sec" | sed -n '/^```sh$/,/^```$/p' | sed '1d;$d' > "$tmp/route.sh"
echo "$sec" | sed -n '/^```sql$/,/^```$/p' | sed '1d;$d' |
	sed -e "s/'submit'/'count'/" -e "s/'jobs'/'app'/" -e "s/'done'/'data_int'/" -e 's/\$\.worker/$.value/' > "$tmp/w/load.sql"
[ -s "$tmp/route.sh" ] && [ -s "$tmp/w/load.sql" ] || fail "doc/fleet.md: no sh or sql block in the DuckDB section"
cat "$tmp/route.sh"
(cd "$tmp/w" && sh -e "$tmp/route.sh") > "$tmp/out" 2> "$tmp/err" || { cat "$tmp/err"; fail "the documented route failed"; }
cat "$tmp/out"
[ -f "$tmp/w/lost.jsonl" ] && [ ! -s "$tmp/w/lost.jsonl" ] || fail "lost.jsonl is not empty: the test wants an empty lost table"

# the answers: line 1 the schema's (empty) results, then one line per statement of load.sql
res() { sed -n "$1p" "$tmp/out"; }
k=$(($(wc -l < "$tmp/out") - 7))	# the 7 statements of load.sql come last
[ $k -ge 1 ] || fail "not the output of 7 statements"
i=$((k + 1))
for t in events regions lost traces; do
	want=$(wc -l < "$tmp/w/$t.jsonl")
	[ "$(res $i | jq -r '.[0].Count')" = "$want" ] || fail "COPY $t: $(res $i), $want rows in $t.jsonl"
	i=$((i + 1))
done
sq() { "$LTT" sql "$tmp/w/traces/a.tar.gz" "$tmp/w/traces/b.tar.gz" --format=csv -e "$1" | tail -n +2; }
got=$(res $i | jq -r '.[] | .p99_ms')
want=$(sq "SELECT percentile(dur_ns, 99) / 1e6 AS p FROM regions WHERE label = 'count'")
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-9 * b) }' ||
	fail "p99_ms: DuckDB $got, ltt sql percentile() $want"
i=$((i + 1))
got=$(res $i | jq -r '.[] | "\(.events) \(.lost)"' | sort)
want=$(sq "SELECT events || ' ' || lost AS x FROM traces" | sort)
[ "$got" = "$want" ] && [ "$(echo "$got" | wc -l)" = 2 ] || fail "events and lost per trace: DuckDB
$got
ltt sql
$want"
i=$((i + 1))
got=$(res $i | jq -r '.[] | to_entries[1].value')
want=$(sq "SELECT avg(value) AS a FROM app_data_int")
awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }' ||
	fail "avg of fields.value: DuckDB $got, ltt sql $want"

# control: inferring the table from the empty file leaves no column to query
printf "CREATE TABLE lost2 AS SELECT * FROM read_json('lost.jsonl', format = 'newline_delimited');\nSELECT host, sum(count) FROM lost2 GROUP BY host;\n" |
	(cd "$tmp/w" && duckdb "$tmp/w/control.duckdb") > /dev/null 2> "$tmp/cerr" && fail "the inferred empty table answered"
grep -q 'host' "$tmp/cerr" || fail "control: $(cat "$tmp/cerr")"
echo ok
