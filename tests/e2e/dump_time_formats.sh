#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt dump --time=abs|rel|delta, the integer ts_ns of --format=json, --format=csv (issue 14 point 6),
# on a trace of known tm (mktrace: block_start at 1700000000.000000000).
set -u
G="$SRCDIR/tests/golden/reader"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-time.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
"$BUILD/tests/progs/mktrace" -o t -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" || fail mktrace
tm() { "$LTT" dump "$@" t | sed 's/^[^:]*: \([0-9.]*\) .*/\1/' | tr '\n' ' '; }
[ "$(tm)" = "1700000000.000000500 1700000000.000001000 1700000000.000001000 1700000000.000001100 1700000000.000001200 1700000000.000001300 1700000000.000001400 1700000002.999999000 1700000002.999999001 " ] ||
	fail "abs: $(tm)"
[ "$(tm --time=abs)" = "$(tm)" ] || fail "--time=abs is not the default"
[ "$(tm --time=rel)" = "0.000000500 0.000001000 0.000001000 0.000001100 0.000001200 0.000001300 0.000001400 2.999999000 2.999999001 " ] ||
	fail "rel: $(tm --time=rel)"
[ "$(tm --time=delta)" = "0.000000000 0.000000500 0.000000000 0.000000100 0.000000100 0.000000100 0.000000100 2.999997600 0.000000001 " ] ||
	fail "delta: $(tm --time=delta)"
# delta counts from the previous event shown: with a filter, from the previous one of those
[ "$(tm --time=delta --event empty)" = "0.000000000 2.999998000 " ] || fail "delta filtered: $(tm --time=delta --event empty)"
"$LTT" dump --time=wall t 2>err.txt && fail "--time=wall accepted"
grep -q "^ltt dump: --time=wall: expected abs" err.txt || fail "--time=wall message: $(cat err.txt)"

# JSON: ts_ns, an integer, beside the time as --time shows it
line=$("$LTT" dump --format=json --time=rel --event scalars --limit 1 t)
case "$line" in '{"time":"0.000001000","ts_ns":1700000000000001000,"cycles":2000,"cpu":"cpu/1","facility":"types","event":"scalars",'*) ;;
	*) fail "json: $line" ;; esac

# CSV: header, CRLF, RFC 4180 quoting (fields always quoted, quotes doubled)
"$LTT" dump --format=csv --event text t > out.csv || fail "csv"
printf 'time,ts_ns,cycles,trace,tracefile,facility,event,fields\r\n1700000000.000000500,1700000000000000500,1500,t,control/processes,types,text,"{""s"":""control event"",""e"":""ZERO""}"\r\n1700000000.000001100,1700000000000001100,2100,t,cpu/0,types,text,"{""s"":""hello \\""world\\""\\n"",""e"":""TEN""}"\r\n1700000000.000001200,1700000000000001200,2200,t,cpu/0,types,text,"{""s"":"""",""e"":3}"\r\n' > want.csv
cmp out.csv want.csv || fail "csv: $(cat -A out.csv)"
[ "$("$LTT" dump --format=csv t | wc -l)" = 10 ] || fail "csv rows"
# a trace path with a comma is quoted
cp -r t 'a,b'
"$LTT" dump --format=csv --event empty 'a,b' | sed -n 2p | grep -q '^1700000000.000001000,1700000000000001000,2000,"a,b",cpu/0,types,empty,"{}"' ||
	fail "quoted trace: $("$LTT" dump --format=csv --event empty 'a,b')"
echo ok
