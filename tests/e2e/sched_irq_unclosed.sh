#!/bin/sh
# SPDX-License-Identifier: MIT
# One interrupt does not poison a CPU (issue 35 point 2): a trace (tests/progs/mktrace, 1 cycle = 1 ns)
# whose CPU 0 has an irq_entry with no irq_exit (the tracepoints were enabled one after another) and
# a soft_irq entry with no exit, then switches and system calls for a second. No irq or softirq
# interval of ltt sql's thread_states is longer than the gap before the next switch or call; the time
# after is the thread's own (user, syscall); ltt stats --sched warns that it closed 2 interrupts by a
# guess (text, JSON irqs_unclosed); and an interrupt with both ends is still counted exactly. The
# interrupts table names each (the handler's name, the soft interrupt's vector) as ltt dump does.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat > script <<'END'
ev 0 1000 kernel.schedchange 0 0 100 0 120 120 "swapper/0" prog
ev 0 2000 kernel.irq_entry 100 9 "eth0"
ev 0 3000 kernel.syscall_entry 100 0 3 0 0 0 0 0
ev 0 500000000 kernel.syscall_exit 100 0 5
ev 0 500001000 kernel.soft_irq 100 entry TIMER
ev 0 600000000 kernel.schedchange 100 100 200 1 120 120 prog other
ev 0 700000000 kernel.irq_entry 200 11 "ata"
ev 0 700002000 kernel.irq_exit 200 11 1
ev 0 1000000000 kernel.schedchange 200 200 0 1 120 120 other "swapper/0"
END
"$BUILD/tests/progs/mktrace" -o t -c 1 -f "$SRCDIR/eventdefs/kernel.xml" -s script || fail "mktrace"
"$LTT" sql t --format=csv -e "SELECT state, max(dur_ns), sum(dur_ns) FROM thread_states WHERE tid = 100 GROUP BY state ORDER BY state" > s.csv ||
	fail "thread_states"
[ "$(cat s.csv | tr "\n" " ")" = "state,max(dur_ns),sum(dur_ns) sleeping,400000000,400000000 syscall,499997000,499997000 user,99999000,100002000 " ] ||
	fail "thread 100's states: $(cat s.csv)"
[ "$("$LTT" sql t --format=csv -e "SELECT max(dur_ns) FROM thread_states WHERE state = 'irq'" | tail -n 1)" = 2000 ] ||
	fail "the closed interrupt: $("$LTT" sql t -e "SELECT * FROM thread_states WHERE state = 'irq'")"
"$LTT" stats --sched t > st.txt || fail "stats --sched"
grep -q "^warning: cpu 0: 2 interrupts entered with no exit before the next switch or system call" st.txt ||
	fail "no warning: $(cat st.txt)"
"$LTT" stats --sched --format=json t | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["cpus"][0]["irqs_unclosed"] == 2, d["cpus"]
irq = [q for q in d["interrupts"] if q["nr"] == 11 and q["kind"] == "irq"][0]
assert irq["count"] == 1 and irq["total_ns"] == 2000 and irq["name"] == "ata", irq
names = sorted((q["kind"], q["nr"], q["name"]) for q in d["interrupts"])
assert names == [("irq", 9, "eth0"), ("irq", 11, "ata"), ("softirq", 1, "TIMER")], names' || fail "JSON"
grep -Eq "^  irq +11 +1 .* ata$" st.txt || fail "the interrupts table names no handler: $(cat st.txt)"
echo ok
