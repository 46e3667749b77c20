#!/bin/sh
# SPDX-License-Identifier: MIT
# prctl(PR_SET_NAME) renames are recorded (core.thread_name), like pthread_setname_np of the calling
# thread: the main thread and a second thread each rename themselves with prctl.
set -u
prog="$BUILD/tests/progs/rec_prctl"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-prctl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$(LTT_TRACE="$tmp/t" "$prog") || fail "run: $out"
names=$("$LTT" dump --event core.thread_name "$tmp/t") || fail "ltt dump"
echo "$names" | grep -q 'prctl-main' || fail "no thread_name prctl-main: $names"
echo "$names" | grep -q 'prctl-worker' || fail "no thread_name prctl-worker: $names"
[ "$(echo "$names" | grep -c .)" = 2 ] || fail "expected 2 thread_name events: $names"
echo ok
