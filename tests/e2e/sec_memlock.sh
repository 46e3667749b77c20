#!/bin/sh
# SPDX-License-Identifier: MIT
# The message names the real cause (issue 32, point 5): an ordinary user's LTT_KERNEL_BUFFER=1G is
# more than the locked memory perf allows (perf_event_mlock_kb per CPU, then RLIMIT_MEMLOCK, set to
# 8 MiB here); the switch records' event opens, their ring does not map. The line on stderr and the
# trace's kernel.missing (ltt stats) name the locked-memory limits and the fix, never
# perf_event_paranoid (before 28 Nov 2026: "switch (perf_event_paranoid=2 and no CAP_PERFMON
# (perf_event_open: Operation not permitted))"). Without LTT_KERNEL_BUFFER the default ring is halved
# until it fits and the switch records are recorded. Run as user 65534 (setpriv) in a 0755 directory
# of /tmp made here (the test's TMPDIR may have root-only parents), removed at exit.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to run as user 65534 (CI runs as root)"; exit 77; }
work=$(mktemp -d) || exit 1
pub=$(mktemp -d /tmp/ltt-sec-memlock.XXXXXX) || exit 1
trap 'rm -rf "$work" "$pub"' EXIT
cd "$work" || exit 1
fail=0
chmod 0755 "$pub" && cp "$BUILD/tests/progs/kernel_prog" "$pub/prog" && chown -R 65534:65534 "$pub" || exit 1
as_user() {	# as_user TRACE ENV...: the program as user 65534, 8 MiB of locked memory
	t=$1
	shift
	(ulimit -l 8192 && env -i PATH=/usr/bin:/bin LTT_TRACE="$pub/$t" LTT_KERNEL=sched "$@" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$pub/prog" run 5) > out 2> err
}
as_user big LTT_KERNEL_BUFFER=1G || { echo "program: exit $?"; cat err; fail=1; }
grep "^ltt: kernel events not recorded" err > line
grep -q "switch (perf's ring of 1G per CPU is more locked memory than allowed (perf_event_mlock_kb=[0-9]* per CPU, then RLIMIT_MEMLOCK 8192 KiB; mmap: [^)]*): give a smaller LTT_KERNEL_BUFFER, or none (the default halves the ring until it fits))" line ||
	{ echo "the line does not name the locked-memory limit:"; cat err; fail=1; }
grep -q "switch (perf_event_paranoid" line && { echo "the line blames perf_event_paranoid:"; cat line; fail=1; }
"$LTT" stats "$pub/big" > stats 2>&1
grep -q "switch (perf's ring of 1G per CPU is more locked memory than allowed" stats ||
	{ echo "the trace's kernel.missing does not say it:"; grep kernel stats; fail=1; }
# the default: halved until it fits, the switch records recorded
as_user small || { echo "program: exit $?"; cat err; fail=1; }
"$LTT" stats "$pub/small" > stats 2>&1
grep -q "kernel *recorded switch" stats || { echo "default ring: no switch records:"; grep kernel stats; cat err; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
