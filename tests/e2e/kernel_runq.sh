#!/bin/sh
# SPDX-License-Identifier: MIT
# Waiting for a CPU, told true in process scope (issue 35, doc/viewing.md "What each scope knows"): a
# thread of tests/progs/runq_prog (SCHED_IDLE, pinned) is woken by another process's write to a pipe
# while a third process holds its CPU; a process-scope recording never sees that wakeup. Its runnable
# time in `ltt stats --sched` (text and JSON) must be within 10% of the kernel's own run_delay the
# thread read from /proc/thread-self/schedstat at its end, or the output must say "at least" (>=);
# as root and as an ordinary user (setpriv, no privilege: perf's switch records and schedstat only).
# The trace holds kernel.run_delay; the thread's pid is the process's (it is not a process of its own),
# and libltt's stop sequence (affinity changes, getppid on each CPU) is not among the main thread's
# system calls (the program's main thread makes none of them).
set -u
prog="$BUILD/tests/progs/runq_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (and setpriv to become nobody)"; exit 77; }
command -v setpriv > /dev/null || { echo "FAIL: setpriv (util-linux) missing"; exit 1; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-runq-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

check() {	# check NAME TRACE OUT
	tid=$(sed -n 's/^woken tid=\([0-9]*\) .*/\1/p' "$3")
	want=$(sed -n 's/.* run_delay_ns=\([0-9]*\) .*/\1/p' "$3")
	[ -n "$tid" ] && [ -n "$want" ] || fail "$1: program output: $(cat "$3")"
	"$LTT" check "$2" > /dev/null || fail "$1: ltt check"
	[ "$("$LTT" dump --event kernel.run_delay "$2" | grep -c "{ tid = $tid ")" -ge 1 ] ||
		fail "$1: no kernel.run_delay sample of $tid"
	"$LTT" stats --sched "$2" > "$tmp/$1.txt" || fail "$1: stats --sched"
	"$LTT" stats --sched --format=json "$2" > "$tmp/$1.json" || fail "$1: stats --sched json"
	row=$(awk -v T="$tid" '$1 == T && $2 ~ /^[0-9]+$/ { print; exit }' "$tmp/$1.txt")
	[ -n "$row" ] || fail "$1: no row for $tid: $(cat "$tmp/$1.txt")"
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [x for x in d["threads"] if x["tid"] == int(sys.argv[2])][0]
print(t["runnable_ns"], "true" if t["runnable_at_least"] else "false", d["runnable_source"])' "$tmp/$1.json" "$tid")
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
th = {t["tid"]: t for t in d["threads"]}
pid = th[int(sys.argv[2])]["pid"]
assert pid in th and pid != int(sys.argv[2]), ("pid", pid)
bad = [c["name"] for c in th[pid]["calls"] if c["name"] in ("sched_setaffinity", "getppid")]
assert not bad, bad
' "$tmp/$1.json" "$tid" || fail "$1: identity or libltt's stop sequence: $(cat "$tmp/$1.json")"
	set -- "$1" $got
	if [ "$3" = true ]; then
		echo "$row" | grep -q '>=' || fail "$1: JSON says at least, the text row does not: $row"
		echo "$1: runnable at least $2 ns (schedstat $want ns), said so"
		return
	fi
	[ "$4" = schedstat ] || fail "$1: runnable_source $4, schedstat expected"
	diff=$(( $2 - want )); [ $diff -lt 0 ] && diff=$(( -diff ))
	[ $(( diff * 10 )) -le "$want" ] || fail "$1: runnable $2 ns, the kernel's run_delay $want ns (more than 10% apart)"
	echo "$1: runnable $2 ns, schedstat run_delay $want ns"
}

LTT_TRACE="$tmp/root" LTT_KERNEL=sched,syscalls "$prog" 20 20 > "$tmp/root.out" 2> "$tmp/root.err" ||
	fail "root run: $(cat "$tmp/root.err")"
check root "$tmp/root" "$tmp/root.out"
setpriv --reuid=65534 --regid=65534 --clear-groups env LTT_TRACE="$tmp/user" LTT_KERNEL=sched "$prog" 20 20 \
	> "$tmp/user.out" 2> "$tmp/user.err" || fail "user run: $(cat "$tmp/user.err")"
check user "$tmp/user" "$tmp/user.out"
grep -q '^runnable: the kernel.s own count' "$tmp/user.txt" || fail "user: no runnable line: $(head -3 "$tmp/user.txt")"
echo "ok"
