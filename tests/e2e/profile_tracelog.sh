#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt dump --format=tracelog (doc/tracelog.md):
# 1. golden output of a fixed trace (tests/golden/profile/trace.script, written by tests/progs/mktrace;
#    TZ=UTC) with and without --brief (which leaves out exactly the `ltt evt` lines);
# 2. a recorded trace with CPU usage and stack sampling (tests/progs/profile_calls): every line is one of
#    the records of doc/tracelog.md with its fields in order, internal ids are counters from 0 per kind,
#    defined (thr crt, fun inf, mod ldf) before any record uses them, and a, b, c, d are named.
# UPDATE=1 rewrites the golden files (check the difference by hand first).
set -u
golden="$SRCDIR/tests/golden/profile"
tmp=$(mktemp -d /tmp/ltt-e2e-ptl.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BUILD/tests/progs/mktrace" -o "$tmp/g" -c 2 -f "$SRCDIR/eventdefs/core.xml" \
	-f "$SRCDIR/tests/eventdefs/gentypes.xml" -s "$golden/trace.script" || fail "mktrace"
TZ=UTC "$LTT" dump --format=tracelog "$tmp/g" >"$tmp/full.txt" 2>"$tmp/err" || { cat "$tmp/err"; fail "dump"; }
TZ=UTC "$LTT" dump --format=tracelog --brief "$tmp/g" >"$tmp/brief.txt" || fail "dump --brief"
if [ "${UPDATE:-}" = 1 ]; then
	cp "$tmp/full.txt" "$golden/tracelog.txt"
	cp "$tmp/brief.txt" "$golden/tracelog-brief.txt"
fi
diff -u "$golden/tracelog.txt" "$tmp/full.txt" || fail "differs from $golden/tracelog.txt"
diff -u "$golden/tracelog-brief.txt" "$tmp/brief.txt" || fail "differs from $golden/tracelog-brief.txt"
grep -v '^ltt evt ' "$tmp/full.txt" | cmp -s - "$tmp/brief.txt" || fail "--brief is not the output without ltt evt"

# The grammar of doc/tracelog.md, and ids defined before use, counted from 0 per kind.
check() {
	awk '
	function id(s) { return s ~ /^0x[0-9a-f]+$/ }
	function num(s) { return s ~ /^[0-9]+$/ }
	function bad(why) { printf "line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
	$1 == "prf" && $2 == "stm" { if ($0 !~ /^prf stm [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9] [-+][0-9][0-9][0-9][0-9]$/) bad("prf stm"); next }
	$1 == "prf" && $2 == "cfg" { if (NF < 4) bad("prf cfg"); next }
	$1 == "prf" && ($2 == "tps" || $2 == "trs") { if (NF != 3 || !num($3)) bad("prf tps/trs"); next }
	$1 == "thr" && $2 == "crt" {
		if (NF != 4 || !id($3) || !id($4)) bad("thr crt")
		if ($4 != sprintf("0x%x", nthr)) bad("thread ids not counted from 0"); thr[$4] = 1; nthr++; next }
	$1 == "thr" && $2 == "aos" { if (NF != 4 || !(($3) in thr) || !num($4)) bad("thr aos"); next }
	$1 == "thr" && $2 == "dst" { if (NF != 4 || !id($3) || !(($4) in thr)) bad("thr dst"); next }
	$1 == "thr" && $2 == "cpu" { if (NF != 5 || !(($3) in thr) || !num($4) || !num($5)) bad("thr cpu"); next }
	$1 == "prc" && $2 == "cpu" { if (NF != 4 || !num($3) || !num($4)) bad("prc cpu"); next }
	$1 == "mod" && $2 == "ldf" {
		if ($0 !~ /^mod ldf 0x[0-9a-f]+ 0x[0-9a-f]+ 0x0 0x00000000 ".*"$/) bad("mod ldf")
		if ($3 != $4) bad("module id is not the load address"); mod[$3] = 1; next }
	$1 == "fun" && $2 == "inf" {
		if (NF < 7 || !id($3) || !id($4) || $5 != "0x0" || !($6 in mod || $6 == "0x0") || $7 != "0x0") bad("fun inf")
		if (NF == 8 && $8 !~ /^0x[0-9a-f]+:0x[0-9a-f]+$/) bad("fun inf code info")
		if ($3 != sprintf("0x%x", nfun)) bad("function ids not counted from 0"); fun[$3] = 1; nfun++; next }
	$1 == "fun" && $2 == "nam" { if ($0 !~ /^fun nam 0x[0-9a-f]+ ".*" "\?" "\?"$/ || !(($3) in fun)) bad("fun nam"); next }
	$1 == "sam" && $2 == "str" {
		if (!(($3) in thr) || !num($4) || !num($5) || $6 !~ /^[0-9]+:[0-9]+(:0x[0-9a-f]+)?$/) bad("sam str")
		for (i = 7; i <= NF; i++) { split($i, f, ":"); if (!((f[1]) in fun) || f[2] !~ /^0x[0-9a-f]+$/) bad("sam str frame") }
		next }
	$1 == "ltt" && $2 == "evt" { if ($0 !~ /^ltt evt [0-9]+ ([0-9]+|\?) "[^"]+\.[^"]+"/) bad("ltt evt"); next }
	{ bad("not a record of doc/tracelog.md") }
	' "$1"
}
check "$tmp/full.txt" || exit 1

# The record grammar of CoreProfiler's TraceLog reader, transcribed as facts from the format document's
# item table (../shared/reference/coreprofiler-tracelog-format.txt): <id>, <ptr>, <token> are 0x%x
# (hex, never "?"); <iid> and <ip> are 0x%x or "?"; <hr> 0x%08X; <num> %d; strings quoted. A line the
# reader's pattern for its record does not match is dropped by the reader, so every line must match.
# ltt evt is ltt's own record (readers skip unknown record types).
grammar() {
	ID='0x[0-9a-fA-F]+' IID='(0x[0-9a-fA-F]+|[?])' IP='(0x[0-9a-fA-F]+|[?])' HR='0x[0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F][0-9A-F]' N='[0-9]+' \
	Q='"([^"\\]|\\.)*"' awk '
	BEGIN {
		ID = ENVIRON["ID"]; IID = ENVIRON["IID"]; IP = ENVIRON["IP"]; HR = ENVIRON["HR"]; N = ENVIRON["N"]
		Q = ENVIRON["Q"]
		d2 = "[0-9][0-9]"	# (no {n}: mawk has no intervals)
		g["prf stm"] = "^prf stm " d2 d2 "-" d2 "-" d2 " " d2 ":" d2 ":" d2 "[.][0-9][0-9][0-9]( [-+]" d2 d2 ")?$"
		g["prf cfg"] = "^prf cfg [^ ]+ .+$"
		g["prf tps"] = "^prf tps " N "$"
		g["prf trs"] = "^prf trs " N "$"
		g["prc cpu"] = "^prc cpu " N " " N "$"
		g["thr crt"] = "^thr crt " ID " " IID "$"
		g["thr aos"] = "^thr aos " IID " " N "$"
		g["thr dst"] = "^thr dst " ID " " IID "$"
		g["thr cpu"] = "^thr cpu " IID " " N " " N "$"
		g["mod ldf"] = "^mod ldf " ID " " ID " " ID " " HR " " Q "$"
		g["fun inf"] = "^fun inf " IID " " ID " " ID " " ID " " ID "( " ID ":" ID ")*( " ID ":" ID ":" ID ")*$"
		g["fun nam"] = "^fun nam " IID " " Q " " Q " " Q "$"
		g["sam str"] = "^sam str " IID " " N " " N " " N ":" N "(:" IP ")?( " IID "(:" IP ")?)*$"
	}
	$1 == "ltt" && $2 == "evt" { next }
	{ k = $1 " " $2; if (!(k in g) || $0 !~ g[k]) { printf "line %d does not match the reader grammar of %s: %s\n", NR, k, $0; err = 1 } }
	END { exit err }' "$1"
}
grammar "$tmp/full.txt" || fail "the reader's grammar"

LTT_TRACE="$tmp/r" LTT_CPU_SAMPLE_MS=10 LTT_STACK_SAMPLE_HZ=1000 "$BUILD/tests/progs/profile_calls" chains 100 ||
	fail "profile_calls"
"$LTT" dump --format=tracelog "$tmp/r" >"$tmp/r.txt" 2>"$tmp/err" || { cat "$tmp/err"; fail "dump of a recorded trace"; }
check "$tmp/r.txt" || exit 1
grammar "$tmp/r.txt" || fail "the reader's grammar (recorded trace)"
for f in a b c d main; do
	grep -q "^fun nam 0x[0-9a-f]* \"$f\" " "$tmp/r.txt" || fail "function $f not named"
done
for r in "prf stm" "prf cfg" "thr crt" "thr aos" "prc cpu" "thr cpu" "mod ldf" "fun inf" "fun nam" "sam str" "ltt evt"; do
	grep -q "^$r " "$tmp/r.txt" || fail "no $r record in a recorded trace"
done
echo ok
