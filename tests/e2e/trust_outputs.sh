#!/bin/sh
# SPDX-License-Identifier: MIT
# Outputs never destroy what they did not write (issue 28, point 5): `ltt sql --save FILE` refuses an
# existing FILE (the trace's own system.xml included), and with --force replaces only an SQLite
# database; `ltt export --force -o OUT` replaces only an earlier export: never a directory that is not a
# CTF export, and never a directory for a file format. Before 26 Nov 2026 --save replaced any file and
# --force deleted a whole directory tree.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty
sum() { find "$1" -type f -exec md5sum {} + | sort; }
before=$(sum ty)

# sql --save over the trace being read, and over another file
out=$("$LTT" sql --save ty/info/system.xml ty 2>&1); rc=$?
check "sql --save over the trace: status" "$rc" 1
check "sql --save over the trace: message" "$out" \
	"ltt sql: --save ty/info/system.xml: exists (--force replaces an earlier --save database, or name another file)"
out=$("$LTT" sql --force --save ty/info/system.xml ty 2>&1); rc=$?
check "sql --force --save over the trace: status" "$rc" 1
check "sql --force --save over the trace: message" "$out" \
	"ltt sql: --save ty/info/system.xml: not an SQLite database (an earlier --save): not replaced by --force"
check "the trace after sql --save" "$(sum ty)" "$before"
# an earlier --save is replaced with --force only
"$LTT" sql --save a.db ty || { echo "sql --save a.db failed"; fail=1; }
out=$("$LTT" sql --save a.db ty 2>&1); rc=$?
check "sql --save over a database without --force" "$rc" 1
"$LTT" sql --force --save a.db ty -e "select count(*) from events" >/dev/null || { echo "--force --save failed"; fail=1; }
check "no temporary file left" "$(ls)" "$(printf 'a.db\nty')"
# too few descriptors: an error, never an empty answer with exit 0
for n in 9 10 11 12 13 14 15 16; do
	out=$(sh -c "ulimit -n $n; exec '$LTT' sql --format=csv ty -e 'select count(*) from events'" 2>/dev/null); rc=$?
	[ $rc = 0 ] && [ "$out" != "$(printf 'count(*)\n9')" ] && { echo "ulimit -n $n: exit 0 with $out"; fail=1; }
done

# export --force over a directory that is not an export
mkdir -p home/docs && echo precious > home/docs/letter
out=$("$LTT" export --format=ctf --force -o home ty 2>&1); rc=$?
check "export --force over a directory: status" "$rc" 1
check "export --force over a directory: message" "$out" \
	"ltt export: home: a directory that is not an earlier CTF export (no metadata of one, or other files in it): not replaced by --force (remove it, or -o names another output)"
out=$("$LTT" export --format=chrome-json --force -o home ty 2>&1); rc=$?
check "export file format --force over a directory: status" "$rc" 1
check "export file format --force over a directory: message" "$out" \
	"ltt export: home: a directory, and this format writes a file: not replaced by --force (remove it, or -o names another output)"
check "the directory after export --force" "$(cat home/docs/letter 2>&1)" precious
# a CTF export is replaced by --force (one trace, and two traces: N_NAME subdirectories)
"$LTT" export --format=ctf -o c.ctf ty || { echo "export ctf failed"; fail=1; }
"$LTT" export --format=ctf --force -o c.ctf ty || { echo "export --force over an export failed"; fail=1; }
"$LTT" export --format=ctf -o c2.ctf ty ty || { echo "export ctf of two failed"; fail=1; }
"$LTT" export --format=ctf --force -o c2.ctf ty ty || { echo "export --force over a two-trace export failed"; fail=1; }
# an export directory with something else put in it is not replaced
echo mine > c.ctf/notes; mkdir c.ctf/sub
out=$("$LTT" export --format=ctf --force -o c.ctf ty 2>&1) && { echo "export --force replaced a CTF export holding a directory of its user's"; fail=1; }
check "the user's file in an export" "$(cat c.ctf/notes)" mine
exit $fail
