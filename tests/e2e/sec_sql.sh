#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt sql cannot be made to run code (issue 32, point 2; toolkit/sql/sql_guard.c, doc/security.md):
# Debian's SQLite takes fts3_tokenizer()'s two-argument form, which hands out a code pointer and
# installs one from a blob (three more statements crashed ltt sql with SIGSEGV). Each statement of the
# attack is refused with exit 1 and one line naming what was refused, never a signal; load_extension
# and the process-wide pragmas too; DEFENSIVE keeps shadow tables read-only; views over ltt's tables
# still work with trusted_schema off. Python's Trace.sql(): tests/python/test_sql_guard.py.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty
# refused Q WHAT: exit 1 and stderr the one line "... not authorized: WHAT..."
refused() {
	"$LTT" sql ty -e "$1" > out 2> err
	rc=$?
	[ $rc -eq 1 ] || { echo "$1: exit $rc, want 1 (139: the tokenizer crashed the process)"; fail=1; }
	[ "$(wc -l < err)" -eq 1 ] && grep -q "^ltt sql: -e 1: line 1, column [0-9]*: not authorized: $2" err ||
		{ echo "$1: stderr:"; cat err; echo "want: not authorized: $2"; fail=1; }
	[ ! -s out ] || { echo "$1: printed rows:"; cat out; fail=1; }
}
refused "SELECT hex(fts3_tokenizer('simple'))" "fts3_tokenizer()"
refused "SELECT fts3_tokenizer('simple', x'4141414141414141')" "fts3_tokenizer()"
refused "SELECT fts3_tokenizer('simple', ?1)" "fts3_tokenizer()"
refused "CREATE TEMP VIEW tk AS SELECT hex(fts3_tokenizer('porter')) AS p; SELECT p FROM tk" "fts3_tokenizer()"
refused "SELECT load_extension('libm.so.6')" "load_extension()"
refused "PRAGMA temp_store_directory = '/'" "PRAGMA temp_store_directory"
refused "PRAGMA hard_heap_limit = 1" "PRAGMA hard_heap_limit"
refused "PRAGMA trusted_schema = ON" "PRAGMA trusted_schema"
# the whole attack in one process: the plant is refused and the rest runs on the real tokenizer
printf "%s\n" "SELECT fts3_tokenizer('simple', x'4141414141414141');" > attack.sql
"$LTT" sql ty < attack.sql > out 2> err
rc=$?
[ $rc -eq 1 ] || { echo "attack: exit $rc, want 1"; cat err; fail=1; }
"$LTT" sql ty --format=csv -e "CREATE VIRTUAL TABLE ft USING fts3(x, tokenize=simple);
INSERT INTO ft VALUES('alpha beta'); SELECT count(*) FROM ft WHERE ft MATCH 'beta'" > out 2> err
check "fts3 on the simple tokenizer" "$(cat out)" "count(*)
1"
# DEFENSIVE: an fts4 table's shadow tables are not the statements' to write
"$LTT" sql ty -e "CREATE VIRTUAL TABLE f4 USING fts4(x); INSERT INTO f4_content VALUES(9, 'x')" > out 2> err
grep -q "table f4_content may not be modified" err || { echo "shadow table written:"; cat err; fail=1; }
check "trusted_schema" "$("$LTT" sql ty --format=csv -e 'PRAGMA trusted_schema')" "trusted_schema
0"
# views and the percentile functions over ltt's tables (marked innocuous) still work
"$LTT" sql ty --format=csv -e "CREATE VIEW v AS SELECT count(*) AS n, median(cpu) AS m FROM events" \
	-e "SELECT n FROM v" > out 2> err || { echo "a view over events failed:"; cat err; fail=1; }
check "view" "$(sed -n 2p out)" "$("$LTT" sql ty --format=csv -e 'SELECT count(*) FROM events' | sed -n 2p)"
# --save sessions are guarded too
"$LTT" sql ty --save saved.db -e "SELECT hex(fts3_tokenizer('simple'))" > out 2> err
rc=$?
[ $rc -eq 1 ] && grep -q "not authorized: fts3_tokenizer()" err || { echo "--save: exit $rc"; cat err; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
