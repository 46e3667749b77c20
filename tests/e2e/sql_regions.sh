#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql's regions table is the data behind ltt stats --regions (tests/progs/app_golden.c's and
# tests/progs/regions_nest.c's traces): per thread and overall, count, children, total, self, min,
# (lower) median, p50, p90, p99 and max computed in SQL from the rows equal the JSON of ltt stats
# --regions exactly; ids and parents nest; threads and processes.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
prog="$BUILD/tests/progs/app_golden"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
(cd "$(dirname "$prog")" && LTT_TRACE="$work/trace" ./app_golden) > /dev/null	# exits 3 on purpose
cd "$work" || exit 1
fail=0
sq() { "$LTT" sql "$T" --format=csv -e "$1" | tail -n +2; }
# percentile P of the rows of a group, as ltt stats --regions defines it (doc/cli.md)
pct() { echo "max(CASE WHEN rn = (n - 1) * $1 / 100 + 1 THEN dur_ns END)"; }
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/nest" ./regions_nest) || { echo "regions_nest failed"; exit 1; }
for T in trace nest; do
	"$LTT" stats --regions --format=json $T > stats.json || { echo "ltt stats --regions $T failed"; exit 1; }
	json=$(sed "s/'/''/g" stats.json)
	# The rows of stats (per thread, then overall), as "tid,category,label,count,children,total,self,min,median,p50,p90,p99,max".
	cols="json_extract(r.value, '\$.category'), json_extract(r.value, '\$.label'), json_extract(r.value, '\$.count'),
		json_extract(r.value, '\$.children'), json_extract(r.value, '\$.total_ns'), json_extract(r.value, '\$.self_ns'),
		json_extract(r.value, '\$.min_ns'), json_extract(r.value, '\$.median_ns'), json_extract(r.value, '\$.p50_ns'),
		json_extract(r.value, '\$.p90_ns'), json_extract(r.value, '\$.p99_ns'), json_extract(r.value, '\$.max_ns')"
	sq "SELECT json_extract(t.value, '\$.tid'), $cols FROM json_each('$json', '\$.threads') t, json_each(t.value, '\$.regions') r
		UNION ALL SELECT 'all', $cols FROM json_each('$json', '\$.overall') r" | sort > want.csv
	# The same from the regions table (children: the regions whose parent_id is the region's id).
	sq "WITH c AS (SELECT r.*, (SELECT count(*) FROM regions k WHERE k.parent_id = r.id) AS nchildren FROM regions r),
		g AS (SELECT CAST(tid AS TEXT) AS k, * FROM c UNION ALL SELECT 'all', * FROM c),
		o AS (SELECT *, row_number() OVER (PARTITION BY k, category, label ORDER BY dur_ns) AS rn,
		      count(*) OVER (PARTITION BY k, category, label) AS n FROM g)
		SELECT k, category, label, n, sum(nchildren), sum(dur_ns), sum(self_ns), min(dur_ns),
		       $(pct 50), $(pct 50), $(pct 90), $(pct 99), max(dur_ns)
		FROM o GROUP BY k, category, label" | sort > got.csv
	[ "$(wc -l < want.csv)" -ge 5 ] || { echo "stats --regions gave too few rows"; cat stats.json; fail=1; }
	cmp -s want.csv got.csv || { echo "regions of $T differ from ltt stats --regions:"; diff want.csv got.csv; fail=1; }
done
T=trace

# self_ns is dur_ns minus the children's (parent_id) durations; depth is the parent's + 1
[ "$(sq "SELECT count(*) FROM regions p WHERE self_ns != dur_ns - (SELECT coalesce(sum(dur_ns), 0) FROM regions c WHERE c.parent_id = p.id)")" = 0 ] ||
	{ echo "self_ns != dur_ns - children"; fail=1; }
[ "$(sq "SELECT count(*) FROM regions c JOIN regions p ON c.parent_id = p.id WHERE c.depth != p.depth + 1 OR c.ts_ns < p.ts_ns OR c.ts_ns + c.dur_ns > p.ts_ns + p.dur_ns")" = 0 ] ||
	{ echo "children not inside their parents"; fail=1; }
[ "$(sq "SELECT count(*) FROM regions WHERE depth > 0 AND parent_id IS NULL")" = 0 ] || { echo "nested region without parent"; fail=1; }
[ "$(sq "SELECT count(DISTINCT id) = count(*) FROM regions")" = 1 ] || { echo "ids not unique"; fail=1; }
# threads: the three of the regions, named as stats names them
[ "$(sq "SELECT group_concat(name, ' ') FROM (SELECT DISTINCT r.thread AS name FROM regions r JOIN threads t ON t.tid = r.tid AND t.trace2_name = r.thread ORDER BY 1)")" = \
	"main th01:preload_thread th02:preload_thread" ] || { echo "threads:"; "$LTT" sql trace -e 'SELECT * FROM threads'; fail=1; }
[ "$(sq "SELECT count(*) FROM processes WHERE sid IS NOT NULL AND pid > 0")" = 1 ] || { echo "processes:"; "$LTT" sql trace -e 'SELECT * FROM processes'; fail=1; }
# msg: ltt_region_enter_printf's message (app_golden.c: ".git/index", "src/"), NULL for the others
[ "$(sq "SELECT group_concat(label || '=' || msg, ' ') FROM (SELECT label, msg FROM regions WHERE msg IS NOT NULL ORDER BY id)")" = \
	"do_read_index=.git/index read_recursive=src/" ] || { echo "msg:"; "$LTT" sql trace -e 'SELECT id, label, msg FROM regions'; fail=1; }
[ "$(sq "SELECT count(*) FROM regions WHERE msg IS NULL AND label NOT IN ('do_read_index', 'read_recursive')")" = "$(sq "SELECT count(*) - 2 FROM regions")" ] ||
	{ echo "regions without a message have a msg"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
