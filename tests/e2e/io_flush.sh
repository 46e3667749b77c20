#!/bin/sh
# SPDX-License-Identifier: MIT
# Quiet programs reach the disk (issue 19.2, 14.9): a program emitting one event every 100 ms has all
# of them in its trace 2 s after the last one while it still runs (the consumer seals the partly
# filled block of a ring quiet for LTT_FLUSH_MS, default 1000); LTT_FLUSH_MS=0 turns that off (none
# on disk before exit). The unused tail of a partly filled block is a hole: a 10-event trace takes
# < 64 KiB of disk in its files (before: 4 MiB, 1 MiB per control file and CPU), control/facilities
# no longer MiBs, and `ltt pack` stays small.
set -u
prog="$BUILD/tests/progs/io_quiet"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-ioflush.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

# quiet TRACE [ENV=V...]: runs io_quiet 10 100 wait, returns once it printed "emitted"; $pid runs on
quiet() {
	t=$1
	shift
	mkfifo "$tmp/in" "$tmp/out" || fail mkfifo
	env "$@" LTT_TRACE="$t" "$prog" 10 100 wait < "$tmp/in" > "$tmp/out" &
	pid=$!
	exec 3> "$tmp/in"
	read -r line < "$tmp/out" || fail "io_quiet said nothing"
	[ "$line" = emitted ] || fail "io_quiet: $line"
}
release() {
	echo go >&3
	exec 3>&-
	wait $pid || fail "io_quiet exit status"
	pid=
	rm -f "$tmp/in" "$tmp/out"
}
count() { "$LTT" dump --event rtest.ev "$1" 2>/dev/null | wc -l; }

# default flush: every event on disk 2 s after the last one, while the program runs
quiet "$tmp/a"
sleep 2
n=$(count "$tmp/a")
[ "$n" = 10 ] || fail "flush: $n of 10 events on disk 2 s after the last, while running"
release
"$LTT" check "$tmp/a" > /dev/null || fail "flush: ltt check: $("$LTT" check "$tmp/a" 2>&1 | head -3)"
[ "$(count "$tmp/a")" = 10 ] || fail "flush: not 10 events after exit"

# LTT_FLUSH_MS=0: no timer, the block waits for exit
quiet "$tmp/b" LTT_FLUSH_MS=0
sleep 2
n=$(count "$tmp/b")
[ "$n" = 0 ] || fail "LTT_FLUSH_MS=0: $n events on disk before exit (expected 0)"
release
[ "$(count "$tmp/b")" = 10 ] || fail "LTT_FLUSH_MS=0: not 10 events after exit"

# disk use: allocated bytes (st_blocks) of the files of a 10-event trace, 1 MiB blocks
LTT_TRACE="$tmp/c" $pin "$prog" 10 0 > /dev/null || fail "io_quiet 10 0"
"$LTT" check "$tmp/c" > /dev/null || fail "small trace: ltt check"
[ "$(count "$tmp/c")" = 10 ] || fail "small trace: not 10 events"
alloc=$(find "$tmp/c" -type f -exec stat -c '%b %B' {} + | awk '{ s += $1 * $2 } END { print s }')
apparent=$(find "$tmp/c" -type f -exec stat -c '%s' {} + | awk '{ s += $1 } END { print s }')
[ "$alloc" -lt 65536 ] || fail "10-event trace: $alloc bytes allocated (apparent $apparent), not < 64 KiB"
fac=$(stat -c '%b %B' "$tmp/c/control/facilities" | awk '{ print $1 * $2 }')
[ "$fac" -le 16384 ] || fail "control/facilities: $fac bytes allocated"
"$LTT" pack "$tmp/c" -o "$tmp/c.tar.gz" > /dev/null 2>&1 || fail "ltt pack"
packed=$(stat -c %s "$tmp/c.tar.gz")
[ "$packed" -lt 65536 ] || fail "ltt pack: $packed bytes"
[ "$("$LTT" dump --event rtest.ev "$tmp/c.tar.gz" | wc -l)" = 10 ] || fail "packed: not 10 events"
echo "ok (10-event trace: $alloc bytes allocated, $apparent apparent; packed $packed)"
