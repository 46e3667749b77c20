/* SPDX-License-Identifier: MIT */
/* Temporary directories of the unit tests. They go under $TMPDIR: tests/run.sh gives each test its own
 * and fails a test that leaves anything in it, so a test removes what it makes, and a directory that
 * cannot be removed fails the test that made it. */
#ifndef LTT_TEST_TMP_H
#define LTT_TEST_TMP_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Makes $TMPDIR/ltt-test-NAME-XXXXXX (or under /tmp) into dir. */
static inline void test_tmp_make(char *dir, size_t len, const char *name)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, len, "%s/ltt-test-%s-XXXXXX", t && *t ? t : "/tmp", name);
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Removes dir and everything under it; the test fails if that does not work. */
static inline void test_tmp_remove(const char *dir)
{
	char cmd[2 * 4096 + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && test ! -e '%s'", dir, dir);
	ck_assert_msg(system(cmd) == 0, "cannot remove the temporary directory %s", dir);
}

#endif
