# SPDX-License-Identifier: MIT
# Sourced by the scripts that follow a trace being recorded (io_follow*.sh):
#   . "$SRCDIR/tests/e2e/lib/follow.sh"
# $prog is io_quiet; $tmp a scratch directory removed at exit, when the processes $pid (the traced
# program) and $fpid (the follower) still running are killed.
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
prog="$BUILD/tests/progs/io_quiet"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-follow.XXXXXX") || exit 1
pid=
fpid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; [ -n "$fpid" ] && kill -9 $fpid 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# ends PID SECONDS: waits up to SECONDS for process PID to end by itself; its exit status in $st
ends() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		[ $i -lt $(($2 * 10)) ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
	wait "$1"
	st=$?
	return 0
}

# lines FILE N SECONDS: waits up to SECONDS for FILE to have N lines
lines() {
	i=0
	# a file not made yet holds 0 lines (a failed wc gave "" and ended the wait at once)
	while n=$(wc -l < "$1" 2>/dev/null) || n=0; [ "$n" -lt "$2" ]; do
		[ $i -lt $(($3 * 10)) ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
