#!/bin/sh
# SPDX-License-Identifier: MIT
# No raw libxml2 chatter (issue 18, point 3): every XML the reader or `ltt gen` parses goes through a
# structured error handler, so a malformed or hostile file gives exactly ltt's one line on stderr,
# never libxml2's own "parser error" lines. Cases: a text node over 10 MB (libxml2's huge text node
# error) in info/manifest.xml, malformed bookmarks, system.xml and facility files, files over the caps.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
fail=0
"$MK" -o good -c 2 -b 4096 -n 100 || exit 1

# one_line NAME EXPECTED CMD...: CMD exits 1 and prints exactly the line EXPECTED on stderr
one_line() {
	name=$1 want=$2
	shift 2
	"$@" > out 2> err
	rc=$?
	if [ $rc != 1 ] || [ "$(wc -l < err)" != 1 ] || [ "$(cat err)" != "$want" ]; then
		echo "FAIL: $name: exit $rc, stderr (expected exactly: $want):"
		head -c 2000 err
		fail=1
	else
		echo "ok: $name: $want"
	fi
}
text() { head -c "$1" /dev/zero | tr '\0' a; }

rm -rf t; cp -r good t
{ printf '<manifest version="1">'; text 11000000; printf '</manifest>\n'; } > t/info/manifest.xml
one_line "manifest, 11 MB text node" \
	"ltt check: t/info/manifest.xml: line 1: xmlSAX2Characters: huge text node" "$LTT" check t

rm -rf t; cp -r good t
{ printf '<manifest version="1">\n<file path="cpu/0" size="1"'; } > t/info/manifest.xml
one_line "manifest, cut short" \
	"ltt check: t/info/manifest.xml: line 2: attributes construct error" "$LTT" check t

rm -rf t; cp -r good t
{ printf '<bookmarks><location time="1">'; text 3000000; printf '</bookmarks>\n'; } > t/info/bookmarks.xml
one_line "bookmarks, malformed" \
	"ltt check: t/info/bookmarks.xml: line 1: malformed XML (Opening and ending tag mismatch: location line 1 and bookmarks); bookmarks ignored" \
	"$LTT" check t

rm -rf t; cp -r good t
{ printf '<bookmarks><location time="1">'; text 11000000; printf '</location></bookmarks>\n'; } > t/info/bookmarks.xml
one_line "bookmarks, 11 MB" \
	"ltt check: t/info/bookmarks.xml: larger than 4194304 bytes; bookmarks ignored" "$LTT" check t

rm -rf t; cp -r good t
printf '<system cpu="2"><a></system>\n' > t/info/system.xml
one_line "system.xml, malformed" \
	"ltt check: t/info/system.xml: missing attribute endian" "$LTT" check t

rm -rf t; cp -r good t
{ printf '<facility name="x"><description>'; text 3000000; printf '</facility>\n'; } > t/eventdefs/x.xml
one_line "facility file over 1 MiB" \
	"ltt check: t/eventdefs/x.xml: larger than 1048576 bytes" "$LTT" check t

rm -rf t; cp -r good t
{ printf '<facility name="x"><description>'; text 500000; printf '</facility>\n'; } > t/eventdefs/x.xml
"$LTT" check t > out 2> err
if grep -qv '^ltt check: ' err; then
	echo "FAIL: facility file, malformed: a line not of ltt's:"; head -c 2000 err; fail=1
else
	echo "ok: facility file, malformed: $(cat err)"
fi

{ printf '<facility name="x"><description>'; text 500000; printf '</facility>\n'; } > x.xml
"$LTT" gen x.xml -o gen > out 2> err
if [ "$(wc -l < err)" != 1 ] || grep -q "parser error" err; then
	echo "FAIL: ltt gen, malformed:"; head -c 2000 err; fail=1
else
	echo "ok: ltt gen, malformed: $(cat err)"
fi
exit $fail
