#!/bin/sh
# SPDX-License-Identifier: MIT
# LTT_KERNEL_SCOPE=system (ltt record --system), as root: every CPU and process, with a state dump of
# every thread at start. A busy second process pinned to the same CPU as the program preempts its
# threads: the switch names it (in = its pid, in_comm = its name) and the state dump lists it;
# irq and faults record too; ltt check is clean.
set -u
prog="$BUILD/tests/progs/kernel_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (CI runs as root)"; exit 77; }
command -v taskset > /dev/null || { echo "FAIL: taskset (util-linux) missing"; exit 1; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-system-XXXXXX)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# the hog: a shell loop pinned to CPU 0, at nice -5 so that it preempts the program (nice and
# taskset exec it: $! is its pid)
nice -n -5 taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
sleep 0.2
# taskset gets libltt.so preloaded (and hands the recording on at its exec): under make asan that is an
# ASan build, so the ASan runtime goes first, as in record_exec.sh
asan=
case "${SANITIZE:-}" in *address*)
	asan="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-}" ;;
esac
env $asan "$LTT" record -o "$tmp/t" --kernel=sched,syscalls,irq,faults --system -- taskset -c 0 "$prog" run 200 \
	> "$tmp/out" 2> "$tmp/err" || fail "record: $(cat "$tmp/err")"
h=$hog; kill "$hog"; wait "$hog" 2>/dev/null; hog=
"$LTT" check "$tmp/t" > /dev/null || fail "ltt check"
grep -q 'ltt_kernel_scope="system"' "$tmp/t/info/system.xml" || fail "scope not system"
"$LTT" dump --event 'kernel.*' "$tmp/t" > "$tmp/dump" || fail "dump"
ours=$(sed -n 's/^[a-z]* tid=\([0-9]*\) .*/\1/p' "$tmp/out" | paste -sd' ')
ours="$ours $(sed -n 's/^ltt_pid="\([0-9]*\)"$/\1/p' "$tmp/t/info/system.xml")"
# a switch from one of the program's threads to another process's thread, named as the state dump
# (every thread alive at start: the hog among them) names it
named=$(awk -v ours="$ours" '
	BEGIN { n = split(ours, o, " "); for (i = 1; i <= n; i++) mine[o[i]] = 1 }
	/^kernel\.state_process: / {
		t = $0; sub(/.*\{ tid = /, "", t); sub(/,.*/, "", t)
		c = $0; sub(/.*comm = "/, "", c); sub(/" }$/, "", c); comm[t] = c; next }
	/^kernel\.schedchange: / {
		out = $0; sub(/.*, out = /, "", out); sub(/,.*/, "", out)
		in_ = $0; sub(/.*, in = /, "", in_); sub(/,.*/, "", in_)
		c = $0; sub(/.*in_comm = "/, "", c); sub(/" }$/, "", c)
		if ((out in mine) && !(in_ in mine) && in_ != 0 && (in_ in comm) && comm[in_] == c) { print in_, c; exit } }
	' "$tmp/dump")
[ -n "$named" ] || fail "no switch from the program's threads ($ours) to another process's thread named by the state dump"
[ "$(grep -c '^kernel\.state_end: ' "$tmp/dump")" = 1 ] || fail "state_end"
grep -q '^kernel\.trap_entry: ' "$tmp/dump" || fail "no page faults"
grep -q '^kernel\.soft_irq: ' "$tmp/dump" || fail "no soft interrupts"
echo "ok: the program preempted by $named, named in the state dump"
