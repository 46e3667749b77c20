#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-fleet (doc/fleet.md): the rows of `ltt export --format=rows` in a real ClickHouse (Debian's
# clickhouse-server, 18.16; `make deps-fleet` installs it). Starts a private server bound to 127.0.0.1
# with its configuration and data under $BUILD/fleet, creates the tables of `ltt sql --schema
# clickhouse` in one database per shard plus Distributed tables over the shards (the layout of
# doc/fleet.md, three shards on this one server), loads three hosts' packed traces (`ltt pack`
# archives, one host per shard), and checks that per-host event counts, lost-event sums and region
# statistics (count, total, min, lower median, max, p99) computed by ClickHouse equal what `ltt stats`
# and `ltt sql` compute from the archives. It stops exactly the server it started and removes its data.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
fail() { echo "check-fleet: $*" >&2; exit 1; }
command -v clickhouse-server > /dev/null && command -v clickhouse-client > /dev/null ||
	fail "clickhouse-server not installed: run make deps-fleet (Debian's clickhouse-server and clickhouse-client)"
command -v jq > /dev/null || fail "jq not installed: run make deps"
MK="$BUILD/tests/progs/mktrace"
F=$(cd "$BUILD" && pwd)/fleet
rm -rf "$F" && mkdir -p "$F/log" "$F/data" "$F/tmp" "$F/work" || exit 1
tcp=$((20000 + $$ % 20000))
pid=
stop() {
	if [ -n "$pid" ]; then
		kill "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
	fi
	rm -rf "$F"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP

cat > "$F/users.xml" <<XML
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
shard() { echo "<shard><replica><host>127.0.0.1</host><port>$tcp</port><default_database>shard$1</default_database></replica></shard>"; }
cat > "$F/config.xml" <<XML
<yandex>
  <logger><level>warning</level><log>$F/log/server.log</log><errorlog>$F/log/server.err.log</errorlog></logger>
  <tcp_port>$tcp</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$F/data/</path>
  <tmp_path>$F/tmp/</tmp_path>
  <user_files_path>$F/user_files/</user_files_path>
  <format_schema_path>$F/format_schemas/</format_schema_path>
  <users_config>$F/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <remote_servers><ltt_fleet>$(shard 1)$(shard 2)$(shard 3)</ltt_fleet></remote_servers>
</yandex>
XML
clickhouse-server --config-file="$F/config.xml" > "$F/log/stdout" 2>&1 &
pid=$!
ch() { clickhouse-client --host 127.0.0.1 --port "$tcp" "$@"; }
i=0
until ch -q 'SELECT 1' > /dev/null 2>&1; do
	kill -0 "$pid" 2> /dev/null || fail "clickhouse-server exited: $(tail -n 3 "$F/log/stdout" "$F/log/server.err.log" 2> /dev/null | tr '\n' ' ')"
	i=$((i + 1))
	[ $i -lt 120 ] || fail "clickhouse-server not answering on 127.0.0.1:$tcp after 60 s"
	sleep 0.5
done
echo "clickhouse-server $(ch -q 'SELECT version()') on 127.0.0.1:$tcp, pid $pid"
cd "$F/work" || exit 1

# Three hosts: the app facility's regions on two threads, and events_lost records.
for h in 1 2 3; do
	awk -v host=$h 'BEGIN {
		t[0] = 1000; t[1] = 1000
		for (i = 0; i < 300 + 50 * host; i++) {
			c = i % 2; tid = 100 * host + c
			d = (i * 7919 + host * 1237) % 50000 + 1000
			printf "ev %d %d app.region_enter %d \"job.c\" %d 0 \"job\" \"run\" \"\"\n", c, t[c], tid, 10 + c
			if (i % 3 == 0) {
				printf "ev %d %d app.region_enter %d \"io.c\" 20 1 \"io\" \"read\" \"\"\n", c, t[c] + 10, tid
				printf "ev %d %d app.region_leave %d \"io.c\" 21 1 \"io\" \"read\" \"\"\n", c, t[c] + 10 + int(d / 2), tid
			}
			printf "ev %d %d app.region_leave %d \"job.c\" %d 0 \"job\" \"run\" \"\"\n", c, t[c] + d, tid, 11 + c
			t[c] += d + 100
			if (i % 50 == 7)
				printf "lost %d %d %d %d\n", c, t[c], host * 3 + i % 5, i % 3
		}
	}' | "$MK" -o "host$h" -c 2 -b 4096 -f "$SRCDIR/eventdefs/app.xml" -s - || fail "mktrace failed"
	sed -i "s/node_name=\"[^\"]*\"/node_name=\"host-$h\"/" "host$h/info/system.xml"
	"$LTT" pack "host$h" -o "host$h.tar.gz" > /dev/null || fail "ltt pack host$h failed"
done

# The schema, once per shard, and the Distributed tables over the shards.
"$LTT" sql --schema clickhouse > schema.sql || fail "ltt sql --schema clickhouse failed"
for db in ltt shard1 shard2 shard3; do
	sed "s/ltt\\./$db./g; s/EXISTS ltt;/EXISTS $db;/" schema.sql | ch --multiquery || fail "creating $db's tables failed"
done
tables="events regions threads processes lost traces"
for t in $tables; do
	ch -q "CREATE TABLE ltt.${t}_all AS ltt.$t ENGINE = Distributed(ltt_fleet, '', $t)" || fail "Distributed $t failed"
done
# Each host's archive into its shard.
for h in 1 2 3; do
	for t in $tables; do
		"$LTT" export --format=rows --table "$t" -o "host$h-$t.jsonl" "host$h.tar.gz" || fail "export host$h $t failed"
		[ ! -s "host$h-$t.jsonl" ] ||	# (no processes in these traces: ClickHouse refuses an empty INSERT)
			ch -q "INSERT INTO shard$h.$t FORMAT JSONEachRow" < "host$h-$t.jsonl" || fail "loading host$h $t failed"
	done
done

bad=0
same() {	# same WHAT FILE-WANT FILE-GOT
	if [ ! -s "$2" ] || ! cmp -s "$2" "$3"; then
		echo "$1: ClickHouse differs from ltt (< ltt, > ClickHouse):"
		diff "$2" "$3"
		bad=1
	else
		echo "$1: equal ($(wc -l < "$2") rows)"
	fi
}
tab=$(printf '\t')

# per-host events and lost sums: ltt stats of each archive
: > want.counts
for h in 1 2 3; do
	"$LTT" stats "host$h.tar.gz" > stats.txt || fail "ltt stats host$h failed"
	ev=$(sed -n 's/^  events *\([0-9]*\) .*/\1/p' stats.txt)
	lost=$(sed -n 's/^  lost *\([0-9]*\) events.*/\1/p' stats.txt)
	printf 'host-%s\t%s\t%s\n' "$h" "$ev" "$lost" >> want.counts
done
ch -q "SELECT host, n, l FROM (SELECT host, count() AS n FROM ltt.events_all GROUP BY host)
       ANY LEFT JOIN (SELECT host, sum(count) AS l FROM ltt.lost_all WHERE cause != 'blocks_lost' GROUP BY host)
       USING host ORDER BY host" > got.counts
same "events and lost per host" want.counts got.counts
ch -q "SELECT host, events, lost FROM ltt.traces_all ORDER BY host" > got.traces
same "traces table" want.counts got.traces

# regions per host and label: ltt stats --regions (count, total, min, median, max) and ltt sql (p99)
: > want.regions
for h in 1 2 3; do
	"$LTT" stats --regions --format=json "host$h.tar.gz" |
		jq -r --arg h "host-$h" '.overall[] | [$h, .category, .label, .count, .total_ns, .min_ns, .median_ns, .max_ns] | @tsv' > stats.tsv
	"$LTT" sql "host$h.tar.gz" --format=csv -e "WITH o AS (SELECT category, label, dur_ns,
		row_number() OVER (PARTITION BY category, label ORDER BY dur_ns) AS rn,
		count(*) OVER (PARTITION BY category, label) AS n FROM regions)
		SELECT category, label, max(CASE WHEN rn = CAST(0.99 * (n - 1) AS INTEGER) + 1 THEN dur_ns END)
		FROM o GROUP BY 1, 2 ORDER BY 1, 2" | tail -n +2 | tr ',' '\t' > p99.tsv
	paste stats.tsv p99.tsv | awk -F '\t' -v OFS='\t' '$2 != $9 || $3 != $10 { print "mismatch"; exit 1 }
		{ print $1, $2, $3, $4, $5, $6, $7, $8, $11 }' >> want.regions || fail "regions rows of stats and sql differ"
done
ch -q "SELECT host, category, label, count(), sum(dur_ns), min(dur_ns),
              arraySort(groupArray(dur_ns))[intDiv(count() - 1, 2) + 1], max(dur_ns),
              arraySort(groupArray(dur_ns))[toUInt64(floor(0.99 * (count() - 1))) + 1]
       FROM ltt.regions_all GROUP BY host, category, label ORDER BY host, category, label" > got.regions
same "regions per host" want.regions got.regions

# fields as a JSON string: visitParam functions of 18.16 read it
ch -q "SELECT count() FROM ltt.events_all WHERE event = 'region_enter' AND visitParamExtractString(fields, 'category') = 'job'" > got.jobs
"$LTT" sql host1.tar.gz host2.tar.gz host3.tar.gz --format=csv \
	-e "SELECT count(*) FROM app_region_enter WHERE category = 'job'" | tail -n 1 > want.jobs
same "JSON fields (visitParamExtractString)" want.jobs got.jobs

# the example queries of doc/fleet.md run on this ClickHouse
for q in "SELECT host, sum(count) AS lost FROM ltt.lost_all WHERE cause != 'blocks_lost' GROUP BY host ORDER BY lost DESC LIMIT 20" \
	"SELECT p.exe AS version, quantileExact(0.99)(r.dur_ns) / 1e6 AS p99_ms, count() AS n FROM ltt.regions_all AS r ANY INNER JOIN ltt.processes_all AS p USING (host, trace) WHERE r.category = 'index' AND r.label = 'do_read_index' GROUP BY version ORDER BY version" \
	"SELECT host, avg(dur_ns) / 1e6 AS avg_ms, max(dur_ns) / 1e6 AS max_ms, count() AS n FROM ltt.regions_all WHERE label = 'submit' GROUP BY host ORDER BY avg_ms DESC LIMIT 10" \
	"SELECT host, avg(visitParamExtractUInt(fields, 'bytes_out')) FROM ltt.events_all WHERE facility = 'jobs' AND event = 'done' GROUP BY host"; do
	ch -q "$q" > /dev/null || { echo "doc/fleet.md query failed: $q"; bad=1; }
done

[ $bad -eq 0 ] || exit 1
echo "check-fleet: ok"
