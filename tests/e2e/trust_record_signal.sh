#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt record` never forwards a signal to another process that got its program's pid (issue 28,
# point 8): it signals through a pidfd of the program, and stops forwarding before it reaps it.
# Checked with strace on ltt record's own system calls:
#   - a SIGTERM while the program runs reaches it (exit 128 + 15) by pidfd_send_signal on the pidfd
#     pidfd_open gave for the program's pid, never by kill();
#   - a SIGTERM after the program was reaped (strace holds wait4's return for 3 s: the window the
#     bug needed, made deterministic; the test waits until /proc/PID is gone) is sent to nobody.
# Before 26 Nov 2026 the second case made ltt record call kill(PID, SIGTERM) on the reaped pid
# (ESRCH here; another process's signal once the pid is used again).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

# run_record DELAY PROGRAM...: ltt record under strace -ff (st.PID per process); sets lp (ltt
# record's pid) and cp (the program's), leaves it running in the background (sp: strace's pid)
run_record() {
	d=$1
	shift
	rm -f st.* rec.err
	# under make asan: LeakSanitizer cannot run under ptrace (it would fail ltt record at exit)
	ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" strace -ff -o st -e trace=kill,tgkill,pidfd_open,pidfd_send_signal,wait4,waitid \
		${d:+-e inject=wait4:delay_exit=$d} "$LTT" record -o tr -- "$@" 2> rec.err &
	sp=$!
	i=0
	while ! grep -q ' runs ' rec.err 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	cp=$(sed -n 's/^ltt record: pid \([0-9]*\) runs .*/\1/p' rec.err)
	lp=$(ps -o pid= --ppid $sp | tr -d ' ')
	[ -n "$cp" ] && [ -n "$lp" ] || { echo "ltt record did not start"; cat rec.err; exit 1; }
}

# 1. forwarded while the program runs: through its pidfd
run_record "" sleep 30
kill -TERM "$lp"
wait $sp; rc=$?
check "forwarded SIGTERM: ltt record's status" "$rc" 143
fd=$(sed -n "s/^pidfd_open($cp, 0) *= \([0-9]*\)$/\1/p" "st.$lp")
[ -n "$fd" ] || { echo "no pidfd_open($cp) by ltt record:"; cat "st.$lp"; fail=1; }
check "forwarded SIGTERM: pidfd_send_signal" "$(grep -c "^pidfd_send_signal($fd, SIGTERM, NULL, 0) *= 0" "st.$lp")" 1
check "forwarded SIGTERM: no kill()" "$(grep -c '^kill(\|^tgkill(' "st.$lp")" 0

# 2. a signal after the reap goes nowhere
run_record 3000000 sleep 0.5
i=0
while [ -e "/proc/$cp" ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i + 1)); done	# reaped: in wait4's delay
kill -TERM "$lp"
wait $sp; rc=$?
check "SIGTERM after the reap: ltt record's status (the program's)" "$rc" 0
check "SIGTERM after the reap: the program was reaped by wait4" \
	"$(grep -c "^wait4($cp, .*= $cp (DELAYED)" "st.$lp")" 1
check "SIGTERM after the reap: sent to nobody" "$(grep '^kill(\|^tgkill(\|^pidfd_send_signal(' "st.$lp")" ""
exit $fail
