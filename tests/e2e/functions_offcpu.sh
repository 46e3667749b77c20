#!/bin/sh
# SPDX-License-Identifier: MIT
# Time off the CPU per function (issue 37, point 5; doc/recorder.md "Function tracing"): the threads'
# own switch records (LTT_KERNEL=switch, --kernel=switch: perf's context-switch records, no
# privilege; ltt record --functions records them by default where perf converts its clock to the TSC,
# not on this guest), and ltt stats --functions and the sql calls table give each function its time off
# the CPU (blocked part apart) and self time on the CPU.
# tests/func/func_jmp.c sleep: sleeper() sleeps 100 ms three times and prints what it measured around
# its nanosleeps (slept_ns). For the -pg build under ltt record --functions as an ordinary user
# (setpriv nobody) and as root, with --kernel=switch, and the -finstrument-functions build with LTT_FUNCTIONS=1
# LTT_KERNEL=switch: sleeper's off-CPU time is within 15% of the program's own measure, nearly all of
# it blocked, and its self time under 15 ms (a sleeping function is not busy); without switch
# records (LTT_KERNEL=0) its off-CPU time is 0 and its self time the whole sleep, as before.
set -u
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-offcpu-XXXXXX") || exit 1
# the ordinary user's run writes under /tmp itself: the test runner's TMPDIR may be root's alone
udir=$(mktemp -d /tmp/ltt-e2e-offcpu-user-XXXXXX) || exit 1
trap 'rm -rf "$tmp" "$udir"' EXIT
chmod 777 "$udir"
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
cd "$tmp" || exit 1
for b in cyg pg; do
	[ -x "$dir/func_jmp_$b" ] || fail "$dir/func_jmp_$b not built (make check builds it)"
done
asroot=
[ "$(id -u)" = 0 ] && asroot=1
f() { jq -r --arg f "$2" ".functions[] | select(.function == \$f) | .$3" "$1"; }

check() {	# NAME TRACE SLEPT_NS
	"$LTT" stats --functions --format=json "$2" > "$tmp/s.json" || fail "$1: ltt stats"
	calls=$(f "$tmp/s.json" sleeper calls) off=$(f "$tmp/s.json" sleeper off_cpu_ns)
	blk=$(f "$tmp/s.json" sleeper blocked_ns) self=$(f "$tmp/s.json" sleeper self_ns)
	[ "$calls" = 3 ] || fail "$1: $calls calls of sleeper"
	awk -v o="$off" -v s="$3" 'BEGIN { exit !(o >= s * 0.85 && o <= s * 1.15) }' ||
		fail "$1: sleeper off the CPU $off ns, the program slept $3 ns (more than 15% apart)"
	awk -v o="$off" -v b="$blk" 'BEGIN { exit !(b >= o * 0.9 && b <= o) }' ||
		fail "$1: sleeper blocked $blk ns of $off ns off the CPU"
	[ "$self" -lt 15000000 ] || fail "$1: sleeper's self time $self ns (its sleep counted as self time)"
	sq=$("$LTT" sql "$2" --format=csv -e "SELECT count(*), sum(off_cpu_ns) = $off FROM calls WHERE function = 'sleeper'" | tail -n 1)
	[ "$sq" = "3,1" ] || fail "$1: sql calls table: $sq"
	echo "ok: $1: sleeper off the CPU $off ns (blocked $blk) for $3 ns slept, self $self ns"
}

# (the build must be reachable by nobody: a clone under a private home is not; said, not failed)
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ -n "$asroot" ] && command -v setpriv >/dev/null && ! nobody test -x "$dir/func_jmp_pg"; then
	echo "note: $dir is not reachable by nobody: the ordinary user's run is left out"
elif [ -n "$asroot" ] && command -v setpriv >/dev/null; then
	out=$(nobody "$LTT" record -o "$udir/pg" --functions --kernel=switch -- \
		"$dir/func_jmp_pg" sleep 2>"$tmp/err") || fail "pg as nobody: $(cat "$tmp/err")"
	[ -d "$udir/pg" ] || fail "pg as nobody: no trace written: $(cat "$tmp/err")"
	check "-pg, ordinary user" "$udir/pg" "${out#slept_ns }"
fi
out=$("$LTT" record -o "$tmp/pg" --functions --kernel=switch -- "$dir/func_jmp_pg" sleep 2>"$tmp/err") || fail "pg: $(cat "$tmp/err")"
check "-pg" "$tmp/pg" "${out#slept_ns }"
out=$(LTT_TRACE="$tmp/cyg" LTT_FUNCTIONS=1 LTT_KERNEL=switch "$dir/func_jmp_cyg" sleep) || fail "cyg: exit status"
check "-finstrument-functions" "$tmp/cyg" "${out#slept_ns }"
out=$(LTT_TRACE="$tmp/none" LTT_FUNCTIONS=1 LTT_KERNEL=0 "$dir/func_jmp_cyg" sleep) || fail "cyg without switches"
"$LTT" stats --functions --format=json "$tmp/none" > "$tmp/s.json" || fail "ltt stats"
[ "$(f "$tmp/s.json" sleeper off_cpu_ns)" = 0 ] || fail "without switch records: off-CPU $(f "$tmp/s.json" sleeper off_cpu_ns)"
[ "$(f "$tmp/s.json" sleeper self_ns)" -gt 250000000 ] || fail "without switch records: self $(f "$tmp/s.json" sleeper self_ns)"
echo "ok: without switch records the off-CPU time is 0 and the sleep is self time"
