# SPDX-License-Identifier: MIT
# Trace.sql() runs on ltt sql's engine under the same guard (toolkit/sql/sql_guard.c, doc/security.md):
# fts3_tokenizer() neither hands out nor installs a code pointer, load_extension() loads nothing, and the
# process goes on after the refusals (before: the planted tokenizer crashed the interpreter, SIGSEGV).
import pytest

import ltt


def refused(t, q, what):
    with pytest.raises(ltt.Error) as e:
        t.sql_rows(q)
    assert "not authorized: " + what in str(e.value)


def test_fts3_tokenizer_and_extensions_refused(types):
    t = ltt.open(types)
    refused(t, "SELECT hex(fts3_tokenizer('simple'))", "fts3_tokenizer()")
    refused(t, "SELECT fts3_tokenizer('simple', x'4141414141414141')", "fts3_tokenizer()")
    refused(t, "SELECT load_extension('libm.so.6')", "load_extension()")
    refused(t, "PRAGMA temp_store_directory = '/'", "PRAGMA temp_store_directory")
    # the statements that would have called the planted pointer run on the real tokenizer
    t.sql_rows("CREATE VIRTUAL TABLE ft USING fts3(x, tokenize=simple)")
    t.sql_rows("INSERT INTO ft VALUES('alpha beta')")
    assert t.sql_rows("SELECT count(*) FROM ft WHERE ft MATCH 'beta'") == (["count(*)"], [(1,)])
    # DEFENSIVE: the shadow tables of an fts table are not the statements' to write
    with pytest.raises(ltt.Error) as e:
        t.sql_rows("INSERT INTO ft_content VALUES(9, 'x')")
    assert "may not be modified" in str(e.value)
    # the user's own views over ltt's tables still work with trusted_schema off
    t.sql_rows("CREATE TEMP VIEW v AS SELECT count(*) AS n, median(cpu) AS m FROM events")
    assert t.sql_rows("SELECT n FROM v")[1] == t.sql_rows("SELECT count(*) FROM events")[1]
