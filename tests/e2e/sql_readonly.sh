#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt sql` without --save only reads (issue 28, point 8): ATTACH of a file that does not exist,
# VACUUM INTO (and VACUUM), a "file:" URI, and any change to an attached database (INSERT, DELETE,
# CREATE, DROP, a PRAGMA that sets) are refused with one line and exit 1, and no file is created or
# changed; reading goes on working: json_each, pragma_table_info, PRAGMA table_info, a read-only
# ATTACH of an existing database, scratch tables and views in memory (main, temp). With --save the
# statements run as SQLite runs them. Before 26 Nov 2026 `VACUUM INTO 'made.db'` and
# `ATTACH 'made.db'` created the files.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
types_trace ty
"$LTT" sql ty --save saved.db || { echo "--save failed"; exit 1; }
sum() { md5sum saved.db; find ty -type f -exec md5sum {} + | sort; }
before=$(sum)

refused() {	# refused NAME STATEMENT WHAT: exit 1 and the line naming WHAT
	out=$("$LTT" sql --format=csv ty -e "ATTACH 'saved.db' AS s" -e "$2" 2>&1); rc=$?
	check "$1: status" "$rc" 1
	check "$1: message" "$out" "ltt sql: -e 2: line 1, column 1: not authorized: $3: ltt sql only reads (--save FILE writes a database; doc/cli.md \"ltt sql\")"
}
refused "ATTACH of a new file" "ATTACH DATABASE 'made.db' AS m" \
	"ATTACH or VACUUM of a file that is not an existing database: made.db"
refused "ATTACH of a URI" "ATTACH 'file:made.db?mode=rwc' AS m" \
	"ATTACH or VACUUM of a file that is not an existing database: file:made.db?mode=rwc"
refused "ATTACH of a directory" "ATTACH 'ty' AS m" "ATTACH or VACUUM of a file that is not an existing database: ty"
refused "VACUUM INTO" "VACUUM INTO 'made.db'" "ATTACH or VACUUM of a file that is not an existing database: made.db"
refused "VACUUM" "VACUUM" "ATTACH or VACUUM of a file that is not an existing database: ''"
refused "INSERT into an attached database" "INSERT INTO s.lost SELECT * FROM s.lost" "a change of lost of database s"
refused "DELETE from an attached database" "DELETE FROM s.events" "a change of events of database s"
refused "CREATE TABLE in an attached database" "CREATE TABLE s.x(a)" "a change of sqlite_master of database s"
refused "DROP TABLE of an attached database" "DROP TABLE s.events" "a change of sqlite_master of database s"
refused "PRAGMA that sets" "PRAGMA s.user_version = 4" "PRAGMA user_version of database s"
refused "PRAGMA journal_mode" "PRAGMA journal_mode = wal" "PRAGMA journal_mode"
refused "PRAGMA optimize" "PRAGMA s.optimize" "PRAGMA optimize of database s"
check "no file made" "$(ls)" "$(printf 'saved.db\nty')"
check "the database and the trace unchanged" "$(sum)" "$before"

# reading works, scratch tables in memory too
out=$("$LTT" sql --format=csv ty -e "SELECT count(*), sum(value) FROM json_each('[1,2,3]')" \
	-e "ATTACH 'saved.db' AS s" -e "SELECT count(*) FROM s.events" -e "PRAGMA s.user_version" \
	-e "SELECT count(*) FROM pragma_table_info('lost')" -e "PRAGMA table_info('lost')" \
	-e "CREATE TABLE scratch AS SELECT cause FROM lost" -e "CREATE TEMP VIEW v AS SELECT count(*) n FROM scratch" \
	-e "SELECT n FROM v" -e "DETACH s" 2>&1); rc=$?
check "reads: status" "$rc" 0
check "reads: output" "$out" 'count(*),sum(value)
3,6
count(*)
9
user_version
0
count(*)
6
cid,name,type,notnull,dflt_value,pk
0,ts_ns,INTEGER,0,,0
1,trace,TEXT,0,,0
2,tracefile,TEXT,0,,0
3,count,INTEGER,0,,0
4,cause,TEXT,0,,0
5,from_ns,INTEGER,0,,0
n
3'
# --save: the statements are SQLite's own
"$LTT" sql --save made.db ty -e "VACUUM INTO 'copy.db'" || { echo "--save with VACUUM INTO failed"; fail=1; }
[ -s copy.db ] || { echo "--save: VACUUM INTO wrote nothing"; fail=1; }
exit $fail
