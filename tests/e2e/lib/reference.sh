# SPDX-License-Identifier: MIT
# Sourced by the tests that read the reference data, which is not in the repository: the 2004 trace of
# the original tools (reference/lttv-smp-example), in $LTT_SHARED/reference (the Makefile's default:
# ../shared beside the checkout). `need_reference PATH` (PATH under reference/) sets REF to the
# reference directory when PATH is there; when it is absent the test skips with one line naming it
# (exit 77), or fails when LTT_REQUIRE_REFERENCE=1 (.ci/run sets it when it finds the data, so that CI
# runs these tests and a misplaced directory cannot turn them into skips).
need_reference() {
	REF="${LTT_SHARED:-${SRCDIR:-.}/../shared}/reference"
	[ -e "$REF/$1" ] && return 0
	if [ "${LTT_REQUIRE_REFERENCE:-}" = 1 ]; then
		echo "FAIL: reference data not found: $REF/$1 (LTT_REQUIRE_REFERENCE=1; LTT_SHARED=${LTT_SHARED:-})"
		exit 1
	fi
	echo "skip: reference data not found: $REF/$1 (set LTT_SHARED to the directory holding reference/)"
	exit 77
}
