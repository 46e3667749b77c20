#!/bin/sh
# SPDX-License-Identifier: MIT
# One definition of the counts (doc/format.md section 7, "Counts"): `ltt stats` (text and JSON),
# `ltt check`'s ok line, the manifest of `ltt pack` and `ltt dump` give the same events, lost and
# overwritten for the same trace, per trace and per tracefile. Builtin records (block_start/end,
# time_heartbeat, facility_load, events_lost, blocks_lost) are not events; core's records are.
# Traces: a mktrace trace with core records, heartbeats, events_lost records and a summary block
# (exact values known), the trace of tests/progs/app_golden (core records of a real recording) and a
# flight snapshot with too_big drops (tests/progs/flight_lost).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

# agree NAME TRACE: checks that every command says the same; sets st to "events lost overwritten"
agree() {
	n=$1 t=$2
	"$LTT" stats "$t" > "$n.stats" || { echo "$n: ltt stats failed"; fail=1; }
	"$LTT" stats --format=json "$t" > "$n.json" || { echo "$n: ltt stats --format=json failed"; fail=1; }
	"$LTT" check "$t" > "$n.check" || { echo "$n: ltt check failed"; fail=1; }
	"$LTT" pack "$t" -o "$n.tar.gz" > /dev/null && "$LTT" unpack "$n.tar.gz" -o "$n.u" > /dev/null ||
		{ echo "$n: pack/unpack failed"; fail=1; }
	m=$n.u/info/manifest.xml
	st=$(sed -n 's/^  events *\([0-9]*\) .*/\1/p' "$n.stats")
	st="$st $(sed -n 's/^  lost *\([0-9]*\) events.*/\1/p' "$n.stats")"
	st="$st $(sed -n 's/^  overwritten *[0-9]* blocks holding \([0-9]*\) events.*/\1/p' "$n.stats")"
	js=$(jq -r '[.counts.events, .counts.lost, .counts.overwritten] | join(" ")' "$n.json")
	jt=$(jq -r '[([.tracefiles[].events] | add), ([.tracefiles[].events_lost[]] | add),
		([.tracefiles[].blocks_lost_events] | add)] | join(" ")' "$n.json")
	ck=$(sed -n 's/.*: ok (.* \([0-9]*\) events, \([0-9]*\) lost, \([0-9]*\) overwritten)$/\1 \2 \3/p' "$n.check")
	mf=$(sed -n 's/.* events="\([0-9]*\)" lost="\([0-9]*\)" overwritten="\([0-9]*\)".*/\1 \2 \3/p' "$m" |
		awk '{ e += $1; l += $2; o += $3 } END { print e + 0, l + 0, o + 0 }')
	dp=$("$LTT" dump "$t" | wc -l | tr -d ' ')
	check "$n: ltt stats --format=json (counts)" "$js" "$st"
	check "$n: ltt stats --format=json (tracefiles summed)" "$jt" "$st"
	check "$n: ltt check" "$ck" "$st"
	check "$n: manifest" "$mf" "$st"
	check "$n: lines of ltt dump" "$dp" "${st%% *}"
	# per tracefile: the stats table (events, lost, overwritten) and the manifest's attributes
	check "$n: per tracefile, stats and manifest" \
		"$(awk '$1 ~ /^(cpu|control)\// && NF == 7 { print $1, $4, $5, $6 }' "$n.stats" | sort)" \
		"$(sed -n 's/.*path="\([^"]*\)" .* events="\([0-9]*\)" lost="\([0-9]*\)" overwritten="\([0-9]*\)".*/\1 \2 \3 \4/p' "$m" | sort)"
	# builtin records: what ltt dump --all prints beyond the events
	check "$n: builtin records" "$(jq '.counts.builtin_records' "$n.json")" \
		"$(( $("$LTT" dump --all "$t" | wc -l) - ${st%% *} ))"
}

cat > script <<'END'
ev control/processes 900 core.thread_start 100 100 "main"
ev control/processes 950 core.thread_name 100 "worker"
ev 0 1000 packtest.tick 1
heartbeat 0 1050
ev 0 1100 packtest.tick 2
ev 0 1150 packtest.note 3 hello
lost 0 1200 5 0
lost 0 1300 2 1
ev 1 1250 packtest.tick 4
gap 1 3 40
ev 1 5000 packtest.tick 5
heartbeat 1 6000
END
"$BUILD/tests/progs/mktrace" -o syn -c 2 -f "$SRCDIR/eventdefs/core.xml" -f "$SRCDIR/tests/golden/pack/packtest.xml" \
	-s script || { echo "mktrace failed"; exit 1; }
# 2 core records + 5 packtest events; events_lost 5 + 2; a summary block: 3 blocks holding 40 events.
# Builtin records: control/facilities 4 (block_start, 2 facility_load, block_end), control/processes
# 2, cpu/0 5 (with a heartbeat and 2 events_lost), cpu/1 8 (two blocks, one with a heartbeat, and
# the summary block: block_start, blocks_lost, block_end); 7 events in 5.1 us.
agree syn syn
check "mktrace trace: events lost overwritten" "$st" "7 7 40"
check "mktrace trace: stats lines" "$(grep -E '^  (events|lost|overwritten) ' syn.stats)" "$(cat <<'END'
  events      7 (builtin records not counted: 19), 1372549.0 events/s
  lost        7 events (buffer_full 5, too_big 2, nested 0, torn 0, internal 0, kernel 0, unknown 0)
  overwritten 3 blocks holding 40 events; 0 blocks missing without a record; 0 damaged blocks
END
)"
check "mktrace trace: check line" "$(cat syn.check)" "syn: ok (5 tracefiles, 6 blocks, 7 events, 7 lost, 40 overwritten)"

(cd "$BUILD/tests/progs" && LTT_TRACE="$work/golden" ./app_golden) > /dev/null	# exits 3 on purpose
agree golden golden
[ "$(jq '.events | to_entries | map(select(.key | startswith("core."))) | map(.value.total) | add' golden.json)" -gt 0 ] ||
	{ echo "app_golden: no core records"; fail=1; }
case "$st" in "0 "*|"") echo "app_golden: no events counted: '$st'"; fail=1 ;; esac

"$BUILD/tests/progs/flight_lost" "$work/big" big > /dev/null || { echo "flight_lost failed"; exit 1; }
agree flight "$work/big/snapshot-0001"
[ "$(echo "$st" | cut -d' ' -f2)" -ge 2 ] || { echo "flight snapshot: lost '$st', want at least the 2 too_big drops"; fail=1; }

[ $fail -eq 0 ] && echo ok
exit $fail
