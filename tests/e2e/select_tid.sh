#!/bin/sh
# SPDX-License-Identifier: MIT
# context="tid" (doc/eventdefs.md "Context"): a facility recorded from 3 named threads: every event's
# tid is its thread's, the eventdefs written into the trace spell the field out (same checksum as the
# generated header), ltt dump names the threads; context="none" opts an event out; errors of ltt gen.
set -u
prog="$BUILD/tests/progs/select_tid"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-select-tid-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" "$prog" run 1000 || fail "run"
out=$("$prog" check "$tmp/t") || fail "check: $out"
[ "$out" = "work=3001 tick=3000 op=3000 bad=0" ] || fail "check: $out"
# the trace's eventdefs: the field spelled out, no attribute, the header's checksum
grep -q 'context=' "$tmp/t/eventdefs/seltid.xml" && fail "context attribute written into the trace"
[ "$(grep -c '<field name="tid">' "$tmp/t/eventdefs/seltid.xml")" = 2 ] || fail "tid fields in eventdefs"
sum=$(sed -n 's/^#define LTT_FACILITY_SELTID_CHECKSUM \(0x[0-9a-f]*\)u$/\1/p' "$BUILD/gen/seltid.h")
[ "$("$LTT" facilities "$tmp/t/eventdefs/seltid.xml")" = "seltid $sum 3" ] || fail "checksum"
"$LTT" check "$tmp/t" > /dev/null || fail "ltt check"
# ltt dump names the threads beside the tid
"$LTT" dump --event 'seltid.*' "$tmp/t" > "$tmp/dump" || fail "dump"
for w in 0 1 2; do
	n=$(grep -c "{ tid = [0-9]* (worker-$w)" "$tmp/dump")
	[ "$n" = 2000 ] || fail "worker-$w: $n events named, 2000 expected"
	grep -q "seltid.work: .*{ tid = [0-9]* (worker-$w), seq = 999, what = \"worker-$w\" }$" "$tmp/dump" ||
		fail "worker-$w: no named work line"
done
[ "$(grep -c '{ tid = [0-9]* (boss), seq = 0, what = "boss" }$' "$tmp/dump")" = 1 ] || fail "boss"
[ "$(grep -c '^seltid.op: .*{ seq = [0-9]* }$' "$tmp/dump")" = 3000 ] || fail "op events"

# errors
cat > "$tmp/bad1.xml" <<'X'
<facility name="b1" context="tid">
  <event name="e"><struct><field name="tid"><uint size="4"/></field></struct></event>
</facility>
X
err=$("$LTT" gen "$tmp/bad1.xml" -o "$tmp/gen" 2>&1) && fail "a field named tid accepted"
[ "$err" = "ltt gen: $tmp/bad1.xml:2: event 'e' has a field 'tid' and context=\"tid\" (rename the field)" ] ||
	fail "tid field: '$err'"
cat > "$tmp/bad2.xml" <<'X'
<facility name="b2">
  <event name="e" context="pid"/>
</facility>
X
err=$("$LTT" gen "$tmp/bad2.xml" -o "$tmp/gen" 2>&1) && fail "context=pid accepted"
[ "$err" = "ltt gen: $tmp/bad2.xml:2: bad context 'pid' (tid or none)" ] || fail "bad context: '$err'"
echo ok
