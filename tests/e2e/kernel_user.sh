#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel events as an ordinary user (doc/recorder.md "Kernel events", "Privileges"): run with setpriv as
# nobody (uid 65534, no groups) at the machine's perf_event_paranoid, the program's output and exit
# status are unchanged; its own threads' context switches are recorded (perf's switch records, no
# privilege needed) and equal each thread's getrusage within 3; what could not be recorded is one line
# on stderr naming the setting and its value, and `ltt stats` says it; ltt check is clean.
set -u
prog="$BUILD/tests/progs/kernel_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root to become nobody with setpriv"; exit 77; }
command -v setpriv > /dev/null || { echo "FAIL: setpriv (util-linux) missing"; exit 1; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-user-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)

# output and exit status unchanged
asuser "$prog" storm 1000 > "$tmp/plain.out" 2> "$tmp/plain.err"; st0=$?
asuser env LTT_TRACE="$tmp/s" LTT_KERNEL=sched,syscalls "$prog" storm 1000 > "$tmp/k.out" 2> "$tmp/k.err"; st1=$?
[ "$st0" = "$st1" ] || fail "exit status $st1 traced, $st0 untraced"
cmp -s "$tmp/plain.out" "$tmp/k.out" || fail "output differs: $(cat "$tmp/k.out")"
[ "$(wc -l < "$tmp/k.err")" = 1 ] || fail "stderr: $(cat "$tmp/k.err")"
if [ "$paranoid" -ge 0 ]; then
	grep -q "^ltt: kernel events not recorded: raw_syscalls:sys_enter, .*perf_event_paranoid=$paranoid and no CAP_PERFMON" "$tmp/k.err" ||
		fail "stderr line: $(cat "$tmp/k.err")"
fi
"$LTT" check "$tmp/s" > /dev/null || fail "ltt check (storm)"
"$LTT" stats "$tmp/s" > "$tmp/stats" || fail "stats"
grep -q '^  kernel      recorded switch,schedstat (process scope)$' "$tmp/stats" || fail "stats: $(grep kernel "$tmp/stats")"
grep -q "^  kernel      not recorded: raw_syscalls:sys_enter.*perf_event_paranoid=$paranoid" "$tmp/stats" ||
	fail "stats: $(grep 'not recorded' "$tmp/stats")"
[ "$("$LTT" dump --event kernel.missing "$tmp/s" | grep -c 'what = "raw_syscalls:sys_enter", error = 13')" = 1 ] ||
	fail "kernel.missing event"

# own context switches recorded, equal to getrusage
asuser env LTT_TRACE="$tmp/t" LTT_KERNEL=sched "$prog" run 200 > "$tmp/out" 2> /dev/null || fail "run"
"$LTT" check "$tmp/t" > /dev/null || fail "ltt check (run)"
"$LTT" dump --event 'kernel.*' "$tmp/t" > "$tmp/dump" || fail "dump"
while read -r name tidf sw; do
	[ "$name" = done ] && continue
	tid=${tidf#tid=}
	want=${sw#switches=}
	got=$(grep -c "^kernel\.thread_switch: .*{ tid = $tid .*direction = out" "$tmp/dump")
	d=$((got - want)); [ $d -lt 0 ] && d=$((-d))
	[ $d -le 3 ] || fail "$name: $got switch-outs recorded, getrusage says $want"
done < "$tmp/out"
sl=$(sed -n 's/^sleeper tid=\([0-9]*\) .*/\1/p' "$tmp/out")
[ "$(grep -c "^kernel\.thread_switch: .*{ tid = $sl .*direction = in" "$tmp/dump")" -ge 10 ] || fail "sleeper's switch-ins"
echo "ok: output unchanged, own switches recorded, missing said (paranoid $paranoid)"
