#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt pack` on a file system that fills (issue 18, point 5): the message names the archive being
# written, never the source file being added ("x.tar.gz: .../cpu/0: No space left on device" was
# wrong), the exit status is 1 and no partial archive is left. On a 64 KiB tmpfs the test mounts (as
# root) and unmounts; without the right to mount, under a file size limit (RLIMIT_FSIZE, EFBIG).
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
MK="$BUILD/tests/progs/mktrace"
work=$(mktemp -d) || exit 1
mounted=
cleanup() { [ -z "$mounted" ] || umount "$work/small"; rm -rf "$work"; }
trap cleanup EXIT
cd "$work" || exit 1
fail=0
# 2 CPUs of 1 MiB blocks, 2 M events: about 42 MB, several MB compressed
"$MK" -o big -c 2 -b 1048576 -n 2000000 || exit 1
mkdir small
if mount -t tmpfs -o size=64k tmpfs small 2> /dev/null; then
	mounted=1
	"$LTT" pack big -o small/x.tar.gz > out 2> err
	rc=$?
	want="ltt pack: small/x.tar.gz: cannot write the archive: No space left on device"
else
	(trap '' XFSZ; ulimit -f 128; exec "$LTT" pack big -o small/x.tar.gz) > out 2> err
	rc=$?
	want="ltt pack: small/x.tar.gz: cannot write the archive: File too large"
fi
echo "exit $rc: $(cat err)"
[ $rc = 1 ] || { echo "FAIL: exit $rc, expected 1"; fail=1; }
[ "$(cat err)" = "$want" ] || { echo "FAIL: expected exactly: $want"; fail=1; }
left=$(ls -A small)
[ -z "$left" ] || { echo "FAIL: left in the target directory: $left"; fail=1; }
exit $fail
