#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt stats --sched on LTTV's own data (the 2004 trace in $LTT_SHARED/reference/lttv-smp-example):
# the core facility's kernel events go through the same model as the kernel facility's. Checked
# against counts computed independently with ltt sql on the raw events:
# - per process, the system calls entered equal the core.syscall_entry events of the CPU while that
#   process was the last one switched in there (events before a CPU's first schedchange belong to no
#   process, and are the CPUs' syscalls_unknown);
# - per CPU, the switches equal its core.schedchange events;
# - per thread, the voluntary and involuntary switches equal the schedchange events switching it out
#   with a state other than running, and with state running (0);
# - the Perfetto export's sched_switch and sched_wakeup events equal the schedchange and wakeup events;
# - lttng-analyses on the LTTng export: system calls per thread exactly, CPU time within 5%.
set -u
: "${BUILD:?}" "${LTT:?}" "${SRCDIR:?}"
. "$SRCDIR/tests/e2e/lib/reference.sh"
need_reference lttv-smp-example
T="$REF/lttv-smp-example"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
sq() { "$LTT" sql "$T" --format=csv -e "$1" | tail -n +2; }
"$LTT" stats --sched --format=json "$T" > s.json || { echo "ltt stats --sched --format=json failed"; exit 1; }
jq -e . s.json > /dev/null || { echo "not JSON"; exit 1; }

jq -r '.processes[] | select(.syscalls > 0) | "\(.pid),\(.syscalls)"' s.json | sort > got
sq 'WITH x AS (SELECT ts_ns, cpu, "in" AS pid, 0 AS k FROM core_schedchange
	       UNION ALL SELECT ts_ns, cpu, NULL, 1 FROM core_syscall_entry),
	y AS (SELECT cpu, k, pid, count(pid) OVER (PARTITION BY cpu ORDER BY ts_ns, k ROWS UNBOUNDED PRECEDING) AS g FROM x),
	z AS (SELECT cpu, g, max(pid) AS pid, sum(k) AS n FROM y GROUP BY cpu, g)
	SELECT pid, sum(n) FROM z WHERE g > 0 GROUP BY pid HAVING sum(n) > 0' | sort > want
[ "$(wc -l < want)" -ge 20 ] || { echo "too few processes with system calls:"; cat want; fail=1; }
cmp -s got want || { echo "system calls per process differ (< stats --sched, > sql):"; diff got want; fail=1; }
unk=$(jq '[.cpus[].syscalls_unknown] | add' s.json)
want_unk=$(sq 'SELECT count(*) FROM core_syscall_entry e WHERE NOT EXISTS
	(SELECT 1 FROM core_schedchange c WHERE c.cpu = e.cpu AND c.ts_ns <= e.ts_ns)')
[ "$unk" = "$want_unk" ] || { echo "system calls before a CPU's first switch: $unk, sql says $want_unk"; fail=1; }
all=$(jq '[.processes[].syscalls] | add' s.json)
[ $((all + unk)) = "$(sq 'SELECT count(*) FROM core_syscall_entry')" ] || { echo "system calls: $all + $unk"; fail=1; }

jq -r '.cpus[] | "\(.cpu),\(.switches)"' s.json | sort > got
sq 'SELECT cpu, count(*) FROM core_schedchange GROUP BY cpu' | sort > want
cmp -s got want || { echo "switches per CPU differ:"; diff got want; fail=1; }

jq -r '.threads[] | select(.switches_voluntary + .switches_involuntary > 0)
	| "\(.tid),\(.switches_voluntary),\(.switches_involuntary)"' s.json | sort > got
sq 'SELECT out, sum(out_state != 0), sum(out_state = 0) FROM core_schedchange WHERE out != 0 GROUP BY out' | sort > want
cmp -s got want || { echo "switches per thread differ (tid,voluntary,involuntary):"; diff got want; fail=1; }

# The text report has the same figures: thread 1409's system calls and switches.
"$LTT" stats --sched "$T" > s.txt || { echo "ltt stats --sched failed"; fail=1; }
row=$(awk '$1 == 1409 && $2 == 1409 { print $13, $14, $18; exit }' s.txt)
[ "$row" = "$(jq -r '.threads[] | select(.tid == 1409) | "\(.switches_voluntary) \(.switches_involuntary) \(.syscalls)"' s.json)" ] ||
	{ echo "text row of 1409: $row"; sed -n 1,12p s.txt; fail=1; }

# Perfetto: the kernel scheduling as Perfetto's ftrace events, decoded by protoc against Perfetto's
# field numbers (tests/export/perfetto.proto) with no unknown field: a sched_switch per schedchange,
# a sched_wakeup per wakeup, and tests/export/check_perfetto.awk finds nothing wrong
: "${SRCDIR:?}"
"$LTT" export --format=perfetto -o k.pftrace "$T" || { echo "ltt export --format=perfetto failed"; exit 1; }
protoc --proto_path="$SRCDIR/tests/export" --decode=perfetto.protos.Trace perfetto.proto < k.pftrace > k.txt 2> k.err ||
	{ echo "protoc cannot decode the export:"; cat k.err; exit 1; }
awk -f "$SRCDIR/tests/export/check_perfetto.awk" k.txt > k.sum
grep '^check:' k.sum && fail=1
[ "$(grep -c 'sched_switch {' k.txt)" = "$(sq 'SELECT count(*) FROM core_schedchange')" ] ||
	{ echo "sched_switch: $(grep -c 'sched_switch {' k.txt)"; fail=1; }
[ "$(grep -c 'sched_wakeup {' k.txt)" = "$(sq "SELECT count(*) FROM core_process WHERE event_sub_id = 'TRACE_EV_PROCESS_WAKEUP'")" ] ||
	{ echo "sched_wakeup: $(grep -c 'sched_wakeup {' k.txt)"; fail=1; }

# LTTng: the export in LTTng's kernel vocabulary, read by lttng-analyses (Debian's
# python3-lttnganalyses, installed by make deps): lttng-syscallstats-mi's system calls per thread equal
# the completed calls of ltt stats --sched exactly, lttng-cputop-mi's CPU time per thread is its
# running time within 5% (threads of 1 ms or more)
"$LTT" export --format=lttng -o k.lttng "$T" || { echo "ltt export --format=lttng failed"; exit 1; }
lttng-syscallstats-mi --skip-validation k.lttng > ss.json 2> ss.err || { echo "lttng-syscallstats-mi failed:"; tail -3 ss.err; exit 1; }
jq -r '.results[] | select(.class.inherit? == "per-tid") | (.class.title | capture("TID: (?<t>[0-9]+)").t) as $t
	| "\($t) \([.data[][1].value] | add)"' ss.json | sort > got
jq -r '.threads[] | select(.syscalls_completed > 0) | "\(.tid) \(.syscalls_completed)"' s.json | sort > want
[ "$(wc -l < want)" -ge 20 ] && cmp -s got want || { echo "system calls per thread (< lttng-syscallstats, > ltt):"; diff got want; fail=1; }
lttng-cputop-mi --skip-validation --limit 100000 k.lttng > ct.json 2> ct.err || { echo "lttng-cputop-mi failed:"; tail -3 ct.err; exit 1; }
jq -r '.results[0] as $r | ($r["time-range"].end.value - $r["time-range"].begin.value) as $d
	| $r.data[] | "\(.[0].tid) \(.[3].value * $d | floor)"' ct.json | sort > got
jq -r '.threads[] | select(.running_ns >= 1000000) | "\(.tid) \(.running_ns)"' s.json | sort > want
[ "$(wc -l < want)" -ge 10 ] || { echo "too few threads ran 1 ms"; fail=1; }
bad=$(join got want | awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > $3 * 0.05) print }')
[ -z "$bad" ] && [ "$(join got want | wc -l)" = "$(wc -l < want)" ] ||
	{ echo "CPU time per thread beyond 5% (tid lttng-cputop ltt):"; echo "$bad"; join -v2 got want; fail=1; }
exit $fail
