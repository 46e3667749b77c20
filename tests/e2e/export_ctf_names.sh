#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt export --format=ctf of a facility whose field names are not TSDL identifiers (issue 28, point 8):
# "bytes-in", "1st", "größe", "a b", a union's "x.y" and "x:y", a sequence "se-q", a struct "in-ner"
# holding "lo-w", a keyword ("event"), and a field literally named like another's mangled name; the
# facility "od-d" and the event "we-ird" (TSDL strings). babeltrace2 reads the export (exit 0, nothing
# on stderr) with the names of the rule of doc/viewing.md "ctf" (tools/export/ctf_meta.c) and
# the values ltt dump prints. Before 26 Nov 2026 the names went into the metadata as they were and
# babeltrace2 stopped at the first one ("syntax error, unexpected CTF_MINUS"), while ltt export said
# it wrote the export (exit 0).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

cat > odd.xml <<'EOX'
<facility name="od-d">
  <description>Field names that are not TSDL identifiers</description>
  <event name="we-ird"><struct><field name="v"><uint size="1"/></field></struct></event>
  <event name="names"><struct>
    <field name="bytes-in"><uint size="4"/></field>
    <field name="bytes_x2din"><uint size="4"/></field>
    <field name="1st"><uint size="1"/></field>
    <field name="größe"><int size="2"/></field>
    <field name="a b"><string/></field>
    <field name="event"><uint size="1"/></field>
    <field name="u"><union typecodesize="1">
      <field name="x.y"><uint size="4"/></field>
      <field name="x:y"><string/></field>
    </union></field>
    <field name="se-q"><sequence lengthsize="2"><uint size="1"/></sequence></field>
    <field name="in-ner"><struct><field name="lo-w"><uint size="2"/></field></struct></field>
  </struct></event>
</facility>
EOX
cat > script <<'EOS'
ev 0 1000 od-d.we-ird 5
ev 0 2000 od-d.names 7 8 1 -2 "hello" 3 0 42 2 5 6 9
ev 0 3000 od-d.names 70 80 10 -20 "bye" 30 1 "str" 0 90
EOS
for e in little big; do
	rm -rf o o.ctf
	"$MK" -o o -e $e -c 1 -f odd.xml -s script || exit 1
	check "ltt dump ($e)" "$("$LTT" dump o | sed -n 2p)" \
		'od-d.names: 1700000000.000001000 (cpu/0) { bytes-in = 7, bytes_x2din = 8, 1st = 1, größe = -2, a b = "hello", event = 3, u = { x.y = 42 }, se-q = [ 5, 6 ], in-ner = { lo-w = 9 } }'
	"$LTT" export --format=ctf o 2>/dev/null || { echo "export ($e) failed"; fail=1; continue; }
	babeltrace2 o.ctf > bt.out 2> bt.err; rc=$?
	check "babeltrace2 ($e): status" "$rc" 0
	check "babeltrace2 ($e): stderr" "$(cat bt.err)" ""
	check "babeltrace2 ($e): events" "$(sed 's/^\[[^]]*\] ([^)]*) //' bt.out)" \
'od-d.we-ird: { cpu_id = 0 }, { v = 5 }
od-d.names: { cpu_id = 0 }, { bytes_x2din = 7, bytes_x2din_2 = 8, 1st = 1, gr_xc3_xb6_xc3_x9fe = -2, a_x20b = "hello", event = 3, ltt_tag_u = ( "x_x2ey" : container = 0 ), u = { 42 }, ltt_len_se_x2dq = 2, se_x2dq = [ [0] = 5, [1] = 6 ], in_x2dner = { lo_x2dw = 9 } }
od-d.names: { cpu_id = 0 }, { bytes_x2din = 70, bytes_x2din_2 = 80, 1st = 10, gr_xc3_xb6_xc3_x9fe = -20, a_x20b = "bye", event = 30, ltt_tag_u = ( "x_x3ay" : container = 1 ), u = { "str" }, ltt_len_se_x2dq = 0, se_x2dq = [ ], in_x2dner = { lo_x2dw = 90 } }'
done
exit $fail
