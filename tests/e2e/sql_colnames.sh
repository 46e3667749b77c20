#!/bin/sh
# SPDX-License-Identifier: MIT
# Generated column names are unique (issue 34, point 6; toolkit/colname.h): tests/eventdefs/colnames.xml
# has a field ts_ns (the leading column: becomes ts_ns_) next to a field ts_ns_, a struct s holding a
# next to a field s_a, and S_A (the same name as s_a for SQL). ltt sql's colnames_clash table has one
# column per field, named by the rule (ts_ns_, ts_ns__2, s_a, s_a_2, S_A_3), each holding its own
# field's value (before: ts_ns_ held 3000, the other field dropped; s_a held 112, 70000's low byte).
# Trace.to_numpy gives the same names and values, and over two traces describing w with 1 and 4 bytes
# never writes 3000 into the 1-byte column (before: 184): the wider one is w_2.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
E="$SRCDIR/tests/eventdefs"
printf 'ev 0 1000 colnames.clash 7 3000 5 70000 9 200\n' > cn.script
printf 'ev 0 1000 colnames.clash 7 3000 5 70000 9 3000\n' > cw.script
"$MK" -o cn -f "$E/colnames.xml" -s cn.script || exit 1
# the same facility with w 4 bytes wide, as another trace of a set may describe it (made here: every
# tests/eventdefs/*.xml is generated into one directory, where a facility is defined once)
sed 's|<field name="w"><uint size="1"/></field>|<field name="w"><uint size="4"/></field>|' "$E/colnames.xml" > wide.xml
grep -q '<field name="w"><uint size="4"/>' wide.xml || { echo "FAIL: wide.xml not made"; exit 1; }
"$MK" -o cw -f wide.xml -s cw.script || exit 1
check "sql: names and values" "$("$LTT" sql --format=csv cn cw -e 'SELECT * FROM colnames_clash' | cut -d, -f1,6-)" \
"ts_ns,ts_ns_,ts_ns__2,s_a,s_a_2,S_A_3,w
1700000000000000000,7,3000,5,70000,9,200
1700000000000000000,7,3000,5,70000,9,3000"
# py ARGS: Debian's python3 with the module of $BUILD (under ASan its runtime preloaded, as
# python_module.sh does; under TSan the Python checks are skipped: returns 77)
py() {
	case "${SANITIZE:-}" in
	*thread*) return 77 ;;
	*address*) LD_PRELOAD="$(${CC:-gcc} -print-file-name=libasan.so)" ASAN_OPTIONS="detect_leaks=0:abort_on_error=0" \
		PYTHONMALLOC=malloc PYTHONPATH="$BUILD/python" "${PYTHON:-/usr/bin/python3}" "$@" ;;
	*) PYTHONPATH="$BUILD/python" "${PYTHON:-/usr/bin/python3}" "$@" ;;
	esac
}
got=$(py -c '
import ltt
a = ltt.open("cn", "cw").to_numpy("colnames.clash")
print(" ".join("%s=%s:%s" % (k, ",".join(str(int(x)) for x in v), v.dtype) for k, v in a.items() if k != "ts_ns"))
'); rc=$?
if [ $rc = 77 ]; then
	echo "note: to_numpy not checked under ${SANITIZE:-}"
elif [ $rc != 0 ]; then
	echo "FAIL: to_numpy"; exit 1
else
	check "to_numpy: names, values, types" "$got" \
		"ts_ns_=7,7:uint16 ts_ns__2=3000,3000:uint32 s_a=5,5:uint8 s_a_2=70000,70000:uint32 S_A_3=9,9:uint8 w=200,0:uint8 w_2=0,3000:uint32"
fi
exit $fail
