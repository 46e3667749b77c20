#!/bin/sh
# SPDX-License-Identifier: MIT
# A traced program that forks without exec (issue 32, point 4; doc/recorder.md "fork(), threads"): the
# child holds none of the parent's perf event descriptors and none of its perf rings (the atfork child
# handler closes them; the kernel never copies the rings), before and after its own ltt_stop(); a child
# that records for itself holds its own only (none before its ltt_start(), some while it records, none
# after its ltt_stop()), and its trace has its own kernel events; the parent's recording is untouched.
# Before 28 Nov 2026 every child kept the parent's 16 descriptors (tests/progs/sec_fork.c; its ring
# mappings were 0 already: perf maps them VM_DONTCOPY).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root for kernel tracepoints (CI runs as root)"; exit 77; }
# ThreadSanitizer cannot follow threads started in the forked child of a multi-threaded process (the
# recording child's consumer thread: "starting new threads after multi-threaded fork is not
# supported", and with die_after_fork=0 "dup thread with used id"): under `make tsan` only the child
# that does not record is checked
child=child
[ "${SANITIZE:-}" = thread ] && child=-
"$BUILD/tests/progs/sec_fork" parent $child > out 2> err || { echo "sec_fork: exit $?"; cat out err; exit 1; }
val() { sed -n "s/^$1 //p" out; }
p=$(val parent)
case $p in "0 "*|*" 0") echo "the parent records no kernel events: $p"; cat err; exit 1 ;; esac
check "child that does not exec" "$(val child)" "0 0"
check "that child after its ltt_stop()" "$(val child-stopped)" "0 0"
if [ $child = - ]; then
	check "parent after the child" "$(val parent-after)" "$p"
	"$LTT" check parent > /dev/null 2> err || { echo "ltt check:"; cat err; fail=1; }
	echo "the recording child is not checked under ThreadSanitizer"
else
	check "recording child before its ltt_start()" "$(val own-before)" "0 0"
	own=$(val own)
	case $own in "0 "*|*" 0") echo "the recording child has no perf descriptors or rings of its own: $own"; fail=1 ;; esac
	check "recording child after its ltt_stop()" "$(val own-after)" "0 0"
	check "parent after the children" "$(val parent-after)" "$p"
	"$LTT" check parent child > /dev/null 2> err || { echo "ltt check:"; cat err; fail=1; }
	ppid=$(sed -n 's/^ltt_pid="\([0-9]*\)"$/\1/p' parent/info/system.xml)
	cpid=$(sed -n 's/^ltt_pid="\([0-9]*\)"$/\1/p' child/info/system.xml)
	[ -n "$cpid" ] && [ "$cpid" != "$ppid" ] || { echo "the child's trace is not its own (pids $ppid $cpid)"; fail=1; }
	n=$("$LTT" dump --event 'kernel.*' child 2> /dev/null | wc -l)
	[ "$n" -gt 0 ] || { echo "the child's trace has no kernel events"; fail=1; }
fi
[ $fail -eq 0 ] && echo ok
exit $fail
