#!/bin/sh
# SPDX-License-Identifier: MIT
# The lttng export names processes as lttng-analyses takes them (issue 35 point 5): a program started by
# `ltt record --kernel` with a thread it makes and two child processes (tests/progs/runq_prog); the
# export holds a state dump record per thread named in the trace and each fork (the thread's child_pid
# the process's; an exec, recorded when the program execs while recording, is written with its
# procname: the recording starts after the program's own exec, so not here);
# lttng-cputop-mi (Debian's python3-lttnganalyses) reads it and names the program's main thread and its
# thread "runq_prog", with their tids.
set -u
: "${BUILD:?}" "${LTT:?}"
[ "$(id -u)" = 0 ] || { echo "skip: needs root for the kernel's tracepoints (CI runs as root)"; exit 77; }
prog="$BUILD/tests/progs/runq_prog"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$LTT" record -o t --kernel=sched,syscalls -- "$prog" 5 10 > out 2> err || fail "record: $(cat err)"
tid=$(sed -n 's/^woken tid=\([0-9]*\) .*/\1/p' out)
pid=$(sed -n 's/^ltt record: pid \([0-9]*\) runs .*/\1/p' err)
[ -n "$tid" ] && [ -n "$pid" ] || fail "output: $(cat out err)"
"$LTT" export --format=lttng -o k.lttng t 2> xerr || fail "export: $(cat xerr)"
babeltrace2 k.lttng > k.txt 2> b.err || fail "babeltrace2: $(cat b.err)"
grep -q "lttng_statedump_process_state: .* tid = $pid, vtid = $pid, pid = $pid, .*name = \"runq_prog\"" k.txt ||
	fail "no state dump of the main thread: $(grep statedump k.txt | head -3)"
grep -q "sched_process_fork: .* parent_tid = $pid, parent_pid = $pid, child_comm = \"[^\"]*\", child_tid = $tid, child_pid = $pid }" k.txt ||
	fail "the thread's fork: $(grep sched_process_fork k.txt | head -3)"
lttng-cputop-mi --skip-validation --limit 100000 k.lttng > ct.json 2> ct.err || fail "lttng-cputop-mi: $(tail -3 ct.err)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {r[0]["tid"]: r[0]["name"] for r in d["results"][0]["data"]}
for t in sys.argv[2:]:
    assert names.get(int(t)) == "runq_prog", (t, names.get(int(t)))
' ct.json "$pid" "$tid" || fail "lttng-cputop names"
echo ok
