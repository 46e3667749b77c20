#!/bin/sh
# SPDX-License-Identifier: MIT
# Messages that name the cause and the fix (issue 14 point 8): ltt unpack into a missing directory,
# facility files with <field> outside <struct> and other faults (FILE:LINE, what is wrong, what to
# write), the CLI's unknown commands and options (the nearest one that exists), options without their
# value (the value's name), missing arguments. Each case: exit status and the one exact line.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-msg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
n=0
# expect STATUS LINE CMD...: CMD exits STATUS and prints exactly LINE on stderr
expect() {
	st=$1 want=$2
	shift 2
	"$@" > out.txt 2> err.txt
	rc=$?
	got=$(cat err.txt)
	[ "$rc" = "$st" ] || fail "$*: exit $rc, not $st ($got)"
	[ "$got" = "$want" ] || fail "$*:
  got:  $got
  want: $want"
	n=$((n + 1))
}

LTT_TRACE="$tmp/t" "$prog" 1 3 > /dev/null || fail "record"
"$LTT" pack t -o t.tar.gz > /dev/null 2>&1 || fail "pack"

# ltt unpack into a directory that does not exist
expect 1 "ltt unpack: -C missing: no such directory (create it first: mkdir -p missing)" \
	"$LTT" unpack t.tar.gz -C missing
expect 1 "ltt unpack: -C t.tar.gz: not a directory (give the directory to extract under)" \
	"$LTT" unpack t.tar.gz -C t.tar.gz
expect 1 "ltt unpack: $tmp/no/such/u: the directory $tmp/no/such does not exist (create it first, or give another path)" \
	"$LTT" unpack t.tar.gz -o "$tmp/no/such/u"
expect 2 "ltt unpack: -C and -o: give one (-C DIR extracts under DIR, -o TRACE names the trace)" \
	"$LTT" unpack t.tar.gz -C . -o u
expect 2 "ltt unpack: no archive given: ltt unpack FILE.tar.gz [-C DIR | -o TRACE] (see ltt unpack --help)" \
	"$LTT" unpack
expect 2 "ltt pack: 'x': one trace at a time: ltt pack TRACE [-o FILE.tar.gz] (see ltt pack --help)" \
	"$LTT" pack t x
[ ! -e missing ] && [ ! -e no ] && [ ! -e u ] || fail "a refused unpack wrote something: $(ls)"

# facility files: FILE:LINE, what is wrong, how to write it
fac() { printf '<facility name="f">\n  <event name="e">\n%s\n  </event>\n</facility>\n' "$2" > "$1.xml"; }
fac field '    <field name="a"><uint size="4"/></field>'
expect 1 "ltt facilities: field.xml:3: <field> where a type belongs: fields go in a <struct> (<event name=\"e\"><struct><field name=\"f\">...</field></struct></event>)" \
	"$LTT" facilities field.xml
expect 1 "ltt gen: field.xml:3: <field> where a type belongs: fields go in a <struct> (<event name=\"e\"><struct><field name=\"f\">...</field></struct></event>)" \
	"$LTT" gen field.xml -o gen
fac integer '    <struct><field name="a"><integer size="4"/></field></struct>'
expect 1 "ltt facilities: integer.xml:3: unknown type <integer> (a type is <int>, <uint>, <float>, <string>, <enum>, <array>, <sequence>, <struct>, <union> or <typeref>)" \
	"$LTT" facilities integer.xml
fac signed '    <struct><field name="a"><int size="4" signed="yes"/></field></struct>'
expect 1 "ltt facilities: signed.xml:3: unknown attribute 'signed' on <int> (it takes size or format)" \
	"$LTT" facilities signed.xml
fac evattr '  </event><event name="d" persist="yes">'
expect 1 "ltt facilities: evattr.xml:3: unknown attribute 'persist' on <event> (it takes name, persistent or context)" \
	"$LTT" facilities evattr.xml
fac seq '    <struct><field name="a"><sequence><uint size="1"/></sequence></field></struct>'
expect 1 "ltt facilities: seq.xml:3: <sequence> without lengthsize (lengthsize=\"N\": 1, 2, 4, 8, short, medium or long)" \
	"$LTT" facilities seq.xml
fac arr0 '    <struct><field name="a"><array size="0"><uint size="1"/></array></field></struct>'
expect 1 "ltt facilities: arr0.xml:3: array of size 0 (an array holds 1 to 1000000 elements; a count known only when recording is a <sequence>)" \
	"$LTT" facilities arr0.xml
fac ref '    <struct><field name="a"><typeref name="point"/></field></struct>'
expect 1 "ltt facilities: ref.xml:3: typeref to unknown type 'point' (define it in the facility: <type name=\"point\">...</type>)" \
	"$LTT" facilities ref.xml
fac noname '    <struct><field><uint size="1"/></field></struct>'
expect 1 "ltt facilities: noname.xml:3: <field> without name (<field name=\"...\">)" \
	"$LTT" facilities noname.xml
fac inner '    <struct><field name="a"><uint size="1"><x/></uint></field></struct>'
expect 1 "ltt facilities: inner.xml:3: unknown element <x> in <uint> (<uint> holds no element)" \
	"$LTT" facilities inner.xml
[ ! -e gen ] || fail "a refused ltt gen wrote gen/"

# the CLI: unknown commands and options name the nearest one, options without their value its name
expect 2 "ltt: unknown command 'dupm'; did you mean 'dump'? (see ltt help)" "$LTT" dupm t
expect 2 "ltt: unknown command 'frobnicate' (see ltt help)" "$LTT" frobnicate
expect 2 "ltt help: unknown command 'stat'; did you mean 'stats'? (see ltt help)" "$LTT" help stat
expect 2 "ltt dump: unknown option '--limt'; did you mean --limit? (see ltt dump --help)" "$LTT" dump --limt 3 t
expect 2 "ltt dump: --limit needs a value: --limit N (see ltt dump --help)" "$LTT" dump t --limit
expect 2 "ltt dump: option '--t' is ambiguous: --to, --tid, --threads, --time (see ltt dump --help)" \
	"$LTT" dump --t=1 t
expect 2 "ltt stats: unknown option '--regoins'; did you mean --regions? (see ltt stats --help)" "$LTT" stats --regoins t
expect 2 "ltt stats: --format=xml: unknown format (text or json)" "$LTT" stats --format=xml t
expect 2 "ltt check: unknown option '--quite'; did you mean --quiet? (see ltt check --help)" "$LTT" check --quite t
expect 2 "ltt export: --format needs a value: --format=FORMAT (see ltt export --help)" "$LTT" export t --format
expect 2 "ltt pack: unknown option '--levl'; did you mean --level? (see ltt pack --help)" "$LTT" pack --levl 3 t
expect 2 "ltt unpack: -C needs a value: -C DIR (see ltt unpack --help)" "$LTT" unpack t.tar.gz -C
expect 2 "ltt recover: unknown option '--lst'; did you mean --list? (see ltt recover --help)" "$LTT" recover --lst
expect 2 "ltt record: unknown option '--mdoe'; did you mean --mode? (see ltt record --help)" \
	"$LTT" record --mdoe flight -- "$prog" 1 1
expect 2 "ltt snapshot: --timeout needs a value: --timeout SECONDS (see ltt snapshot --help)" "$LTT" snapshot t --timeout
expect 2 "ltt sql: unknown option '--statz'; did you mean --stats? (see ltt sql --help)" "$LTT" sql --statz t
expect 2 "ltt gen: unknown option '--prefx'; did you mean --prefix? (see ltt gen --help)" "$LTT" gen --prefx=a field.xml
expect 2 "ltt facilities: unknown option '-o' (it takes only FILE.xml...; see ltt facilities --help)" \
	"$LTT" facilities -o x field.xml
rm -f out.txt err.txt
echo "ok: $n messages"
