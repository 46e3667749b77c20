#!/bin/sh
# SPDX-License-Identifier: MIT
# One owner of thread identity (issue 35 point 2, issue 33 point 3; toolkit/thread_table.h):
# tests/progs/ident_prog.c starts "worker-a" through pthread_create (libltt's interposer records it)
# and "bg-hidden" through the C library's own pthread_create (found with dlsym in libc.so.6: behind the
# interposer, no core.thread_start), which names itself with prctl. In a process-scope kernel
# recording, ltt sql's threads table and ltt stats --sched (text and JSON) must list both threads in
# the program's process (pid = the program's pid, not their own tid) under their own names, and the
# main thread with its pid and the program's name (not Trace2's "main", which is trace2_name).
set -u
prog="$BUILD/tests/progs/ident_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (sched tracepoints)"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-thread-identity-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_KERNEL=sched,syscalls "$prog" > "$tmp/out" 2> "$tmp/err" || fail "run: $(cat "$tmp/err")"
pid=$(sed -n 's/^pid //p' "$tmp/out"); main=$(sed -n 's/^main //p' "$tmp/out")
a=$(sed -n 's/^worker-a //p' "$tmp/out"); b=$(sed -n 's/^bg-hidden //p' "$tmp/out")
[ -n "$pid" ] && [ -n "$a" ] && [ -n "$b" ] && [ "$main" = "$pid" ] || fail "program output: $(cat "$tmp/out")"

q() { "$LTT" sql "$tmp/t" --format=csv -e "$1" | tail -n +2; }
[ "$(q "SELECT pid, name, process FROM threads WHERE tid = $main")" = "$pid,ident_prog,ident_prog" ] ||
	fail "threads: main thread: $(q "SELECT * FROM threads")"
[ "$(q "SELECT pid, name, process FROM threads WHERE tid = $a")" = "$pid,worker-a,ident_prog" ] ||
	fail "threads: worker-a: $(q "SELECT * FROM threads")"
[ "$(q "SELECT pid, name, process FROM threads WHERE tid = $b")" = "$pid,bg-hidden,ident_prog" ] ||
	fail "threads: bg-hidden (made behind the interposer): $(q "SELECT * FROM threads")"
[ "$(q "SELECT json_extract(names, '\$[#-1]') FROM threads WHERE tid = $b")" = bg-hidden ] ||
	fail "threads: names over time: $(q "SELECT names FROM threads WHERE tid = $b")"

"$LTT" stats --sched "$tmp/t" > "$tmp/sched.txt" || fail "stats --sched"
for t in "$main ident_prog" "$a worker-a" "$b bg-hidden"; do
	set -- $t
	awk -v T="$1" -v P="$pid" -v N="$2" '$1 == T && $2 == P && $3 == N { f = 1 } END { exit !f }' "$tmp/sched.txt" ||
		fail "stats --sched: no row '$1 $pid $2': $(sed -n '1,12p' "$tmp/sched.txt")"
done
"$LTT" stats --sched --format=json "$tmp/t" > "$tmp/sched.json" || fail "stats --sched json"
python3 - "$tmp/sched.json" "$pid" "$b" <<'PY' || fail "stats --sched json: $(head -c 2000 "$tmp/sched.json")"
import json, sys
d = json.load(open(sys.argv[1]))
pid, b = int(sys.argv[2]), int(sys.argv[3])
t = [x for x in d["threads"] if x["tid"] == b][0]
assert t["pid"] == pid and t["name"] == "bg-hidden", t
assert not [p for p in d["processes"] if p["pid"] == b], "bg-hidden listed as a process of its own"
PY
echo "ok: main $main, worker-a $a, bg-hidden $b all in process $pid under their names"
