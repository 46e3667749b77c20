#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt recover` exit status: 0 when everything was recovered; 1 when something could not be (here a
# facility's XML in the ring file's records overwritten with garbage: its events cannot be decoded),
# with the summary still printed and the last line saying the trace is incomplete. A complete recovery
# removes the ring file (--keep keeps it); an incomplete one leaves it.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-recexit-XXXXXX")
trap 'reg_forget "$tmp/t"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/shm"
LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$tmp/t" LTT_SHM_DIR="$tmp/shm" \
	"$prog" torn 3000 tick
ring=$(ls "$tmp"/shm/ltt-*.ring) || fail "no ring file"

"$LTT" recover --keep "$ring" -o "$tmp/ok" >"$tmp/log" 2>&1 || fail "intact file: status $?: $(cat "$tmp/log")"
[ -f "$ring" ] || fail "--keep: the ring file was removed"

# the flighttest facility's XML record: garbage over its first <event
off=$(grep -a -b -o '<facility name="flighttest"' "$ring" | head -n 1 | cut -d: -f1)
[ -n "$off" ] || fail "no flighttest XML in the ring file"
cp "$ring" "$tmp/bad.ring"
printf '\001\377<<&&\377\000\377>>\376' | dd of="$tmp/bad.ring" bs=1 seek=$((off + 5)) conv=notrunc status=none
"$LTT" recover "$tmp/bad.ring" -o "$tmp/bad" >"$tmp/log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "damaged facility: status $rc, expected 1: $(cat "$tmp/log")"
grep -q "does not parse" "$tmp/log" || fail "no 'does not parse' line: $(cat "$tmp/log")"
tail -n 1 "$tmp/log" | grep -q "^ltt recover: .*/bad: incomplete: " || fail "last line: $(tail -n 1 "$tmp/log")"
[ -f "$tmp/bad/info/system.xml" ] || fail "no trace written for the damaged file"
[ -f "$tmp/bad.ring" ] || fail "the damaged file was removed (its recovery is incomplete)"
# a recovery with status 0 removes the file it read (before: left behind, the rings' size in tmpfs)
"$LTT" recover "$ring" -o "$tmp/ok2" >"$tmp/log" 2>&1 || fail "intact file again: status $?: $(cat "$tmp/log")"
[ ! -e "$ring" ] || fail "the ring file is left after a complete recovery"
tail -n 1 "$tmp/log" | grep -q "^$ring: removed (recovered into $tmp/ok2; --keep keeps it)$" || fail "last line: $(tail -n 1 "$tmp/log")"
echo ok
