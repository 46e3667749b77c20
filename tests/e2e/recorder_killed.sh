#!/bin/sh
# SPDX-License-Identifier: MIT
# Discard mode, a program killed by SIGKILL while it records: the control tracefiles (facilities,
# processes, interrupts) are on disk from the start (their first block is sealed at once), so what the
# consumer wrote of cpu/N decodes (before: control/* were 0 bytes until ltt_stop(), and every event of
# a facility was "unknown event id").
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-killed.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# files capped at 16 MiB (the writer floods: GB/s otherwise); writes past it fail (counted lost)
(trap '' XFSZ; ulimit -f 16384; LTT_BLOCK_SIZE=4096 LTT_BLOCKS=64 LTT_TRACE="$tmp/t" exec "$prog" 1 4000000000) \
	>/dev/null 2>&1 &
pid=$!
# wait (10 s at most) until some cpu block reached the file, then kill
i=0
while [ $i -lt 100 ]; do
	sz=$(cat "$tmp"/t/cpu/* 2>/dev/null | wc -c)
	[ "$sz" -ge 40960 ] && break
	sleep 0.1
	i=$((i + 1))
done
sleep 0.2
kill -9 $pid
wait $pid 2>/dev/null
[ "$sz" -ge 40960 ] || fail "no cpu block written in 10 s"
for f in facilities processes interrupts; do
	[ -s "$tmp/t/control/$f" ] || fail "control/$f is empty after SIGKILL"
done
# the consumer may have been killed inside a write: keep the whole blocks only
for f in "$tmp"/t/cpu/*; do
	n=$(wc -c < "$f")
	truncate -s $((n / 4096 * 4096)) "$f"
done
# the only problem is the one a kill makes: the recording did not stop (its end may be missing)
out=$("$LTT" check "$tmp/t" 2>&1) && fail "ltt check said ok of a recording that never stopped"
[ "$out" = "ltt check: $tmp/t: recording did not stop: its end may be missing (info/write-losses is empty: the recording process was killed, or still records)" ] ||
	fail "ltt check: $(echo "$out" | head -5)"
n=$("$LTT" dump --event rtest.ev "$tmp/t" 2>/dev/null | wc -l)
[ "$n" -gt 100 ] || fail "only $n rtest.ev events decoded"
"$LTT" dump --event core.process "$tmp/t" | grep -q rec_stress || fail "no core.process of rec_stress"
"$LTT" dump --event core.interrupt "$tmp/t" | grep -q . || echo "note: no core.interrupt (no /proc/interrupts?)"
echo ok
