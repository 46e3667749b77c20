#!/bin/sh
# SPDX-License-Identifier: MIT
# Whole system calls (kernel.syscall, doc/format.md section 13; issue 36 point 4): a call whose exit
# follows its entry in perf's ring is one 25-byte event for getppid instead of 84 bytes for the pair,
# and every reader takes it as the pair. tests/progs/kernel_prog makes N getppid() calls; recorded
# with whole calls (the default) and with LTT_EVENTS=-kernel.syscall (every call as the pair, as
# before), both traces give the program's own count: N completed getppid calls in ltt sql's syscalls
# (the model), in ltt stats --sched, and N syscall_entry_getppid + N syscall_exit_getppid in the lttng
# export as babeltrace2 reads it. Then a flight snapshot with small rings: ltt stats gives each
# kernel stream's seconds of history, the common window, and the exact bytes per event.
set -u
: "${BUILD:?}" "${LTT:?}"
[ "$(id -u)" = 0 ] || { echo "skip: needs root for the syscall tracepoints (CI runs as root)"; exit 77; }
prog="$BUILD/tests/progs/kernel_prog"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
N=4000

for m in whole pair; do
	ev=
	[ $m = pair ] && ev=-kernel.syscall
	LTT_EVENTS=$ev LTT_TRACE=$m LTT_KERNEL=syscalls "$prog" storm $N > out.$m 2> err.$m || fail "$m: $(cat err.$m)"
	"$LTT" check $m > /dev/null || fail "$m: ltt check"
	w=$("$LTT" dump --event 'kernel.syscall' $m | grep -c 'syscall_id = 110 (getppid)')
	p=$("$LTT" dump --event 'kernel.syscall_entry' $m | grep -c 'syscall_id = 110 (getppid)')
	case $m in
	whole) [ "$w" -ge $((N / 2)) ] || fail "whole: only $w of $N calls whole ($p pairs)" ;;
	pair) [ "$w" = 0 ] && [ "$p" = $N ] || fail "pair: $w whole calls, $p pairs for $N" ;;
	esac
	n=$("$LTT" sql $m --format=csv -e "SELECT count(*) FROM syscalls WHERE name = 'getppid' AND dur_ns > 0
		AND end_ns >= ts_ns" | tail -n 1)
	[ "$n" = $N ] || fail "$m: $n getppid calls in the syscalls table, $N made"
	"$LTT" stats --sched $m > sched.$m || fail "$m: stats --sched"
	grep -Eq "^  getppid +$N +$N " sched.$m || fail "$m: stats --sched: $(grep getppid sched.$m)"
	"$LTT" export --format=lttng -o $m.lttng $m 2> x.err || fail "$m: export: $(cat x.err)"
	babeltrace2 $m.lttng > $m.txt 2> b.err || fail "$m: babeltrace2: $(cat b.err)"
	e=$(grep -c 'syscall_entry_getppid:' $m.txt)
	x=$(grep -c 'syscall_exit_getppid:' $m.txt)
	[ "$e" = $N ] && [ "$x" = $N ] || fail "$m: lttng export: $e entries, $x exits for $N calls"
	echo "$m: $w whole calls, $p pairs; $N calls in syscalls, stats --sched and the lttng export"
done

# a snapshot whose kernel ring (8 blocks of 4 KiB) wrapped
LTT_TRACE=fl LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_KERNEL=syscalls "$prog" storm 20000 \
	> out.fl 2> err.fl || fail "flight: $(cat err.fl)"
s=fl/snapshot-0001
"$LTT" check $s > /dev/null || fail "flight: ltt check"
"$LTT" stats $s > st.txt || fail "flight: stats"
grep -Eq '^  history     kernel/[0-9]+ +[0-9.]+ s from [0-9.]+ \(older blocks overwritten\), [0-9.]+ MiB of blocks: [0-9.]+ s per MiB' st.txt ||
	fail "no history line of an overwritten kernel stream: $(grep history st.txt)"
grep -q '^  history     every stream holds ' st.txt || fail "no common window: $(grep history st.txt)"
grep -Eq '^  bytes       kernel.syscall: 25\.[0-9] per event \([0-9]+ events, [0-9]+ bytes, headers included\)' st.txt ||
	fail "bytes: $(grep bytes st.txt)"
"$LTT" stats --format=json $s > st.json || fail "flight: stats json"
# the bytes the whole calls take: 25 with the header, 8 more per argument
want=$("$LTT" dump --event kernel.syscall $s | awk '{ n++; b += 25; if (match($0, /args = \[ [^]]*\]/)) {
	a = substr($0, RSTART + 9, RLENGTH - 10); b += 8 * (gsub(/,/, ",", a) + 1) } } END { print n + 0, b + 0 }')
python3 - st.json $want <<'EOF' || fail "stats json (kernel.syscall: $want events, bytes)"
import json, sys
d = json.loads(open(sys.argv[1]).readline())
h = d["history"]
k = [s for s in h["streams"] if s["name"].startswith("kernel/") and s["overwritten_before"]]
assert k, h["streams"]
for s in k:
    assert s["ns"] > 0 and s["kept_bytes"] > 0 and s["seconds_per_mib"] > 0, s
    assert abs(s["seconds_per_mib"] - s["ns"] / 1e9 / (s["kept_bytes"] / 1048576)) < 1e-5, s
assert h["common_ns"] == min(s["ns"] for s in k), h
b = h["event_bytes"]["kernel.syscall"]
assert [b["events"], b["bytes"]] == [int(sys.argv[2]), int(sys.argv[3])], b
for name, e in h["event_bytes"].items():
    assert e["events"] == d["events"][name]["total"], (name, e)
EOF
echo "ok: $(grep -c '^  history     kernel' st.txt) kernel streams' history, $(grep 'every stream' st.txt)"
