#!/bin/sh
# SPDX-License-Identifier: MIT
# A setuid-root program linked with libltt, run by an ordinary user with hostile LTT_* settings
# (issue 32, point 1; doc/recorder.md "Setuid and file-capability programs"): LTT_TRACE naming a
# root-only directory, LTT_RECORD_REPORT naming a root-owned file the user cannot write (before: a line
# of the user's choosing appended to it), LTT_SHM_DIR and XDG_RUNTIME_DIR the root-only directory, flight
# mode. Nothing is created or changed where the user could not write; one stderr line says the
# variables were ignored; the program's own ltt_start() options still record. The same program without
# its setuid bit takes LTT_TRACE from the environment as always.
# The program and the directories sit in a 0755 directory of /tmp made here (the test's TMPDIR may
# have root-only parents), removed at exit.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to make a setuid-root program (CI runs as root)"; exit 77; }
command -v setpriv > /dev/null || { echo "setpriv (util-linux) not found"; exit 1; }
work=$(mktemp -d) || exit 1
pub=$(mktemp -d /tmp/ltt-sec-setuid.XXXXXX) || exit 1
trap 'rm -rf "$work" "$pub"' EXIT
cd "$work" || exit 1
fail=0
chmod 0755 "$pub"
cp "$BUILD/tests/progs/sec_setuid" "$pub/prog" && chown 0:0 "$pub/prog" && chmod 4755 "$pub/prog" || exit 1
cp "$BUILD/tests/progs/sec_setuid" "$pub/plain" && chmod 0755 "$pub/plain" || exit 1
mkdir -m 0700 "$pub/secret"			# root's: the user can neither enter nor write it
mkdir -m 0755 "$pub/out"			# where the program itself records (its own option)
mkdir -m 0755 "$pub/user" && chown 65534:65534 "$pub/user"	# the user's own directory
head -n 3 /etc/passwd > "$pub/passwd" && chmod 0644 "$pub/passwd"	# root's file, readable by all
cp "$pub/passwd" passwd.want
state() { (cd "$pub" && find . -path ./out -prune -o -printf '%p %m %U %s\n' | sort); }
state > before
# as 65534: real uid 65534, and euid 0 from the setuid bit (AT_SECURE)
as_user() {
	env -i PATH=/usr/bin:/bin LTT_TRACE="$pub/secret/trace" LTT_RECORD_REPORT="$pub/passwd" \
		LTT_SHM_DIR="$pub/secret" LTT_MODE=flight LTT_VERBOSE=1 XDG_RUNTIME_DIR="$pub/secret" "$@" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$pub/prog" "$pub/out/own"
}
as_user > out 2> err
rc=$?
[ $rc -eq 0 ] || { echo "setuid program: exit $rc"; cat err; fail=1; }
if [ "$(head -n 1 out)" != "euid=0 ruid=65534 secure=1" ]; then
	echo "the program did not run setuid root (is /tmp mounted nosuid?): $(head -n 1 out)"
	exit 1
fi
grep -qx "start 0" out || { echo "the program's own ltt_start() failed:"; cat out err; fail=1; }
state > after
cmp -s before after || { echo "changed where the user cannot write:"; diff before after; fail=1; }
cmp -s passwd.want "$pub/passwd" || { echo "LTT_RECORD_REPORT: root's file changed:"; diff passwd.want "$pub/passwd"; fail=1; }
[ -z "$(ls -A "$pub/secret")" ] || { echo "created in the root-only directory:"; ls -la "$pub/secret"; fail=1; }
[ ! -e /tmp/ltt-65534 ] || [ -z "$(find /tmp/ltt-65534 -newer before 2>/dev/null)" ] ||
	{ echo "a snapshot registry file was made for the user"; fail=1; }
want="ltt: setuid, setgid or file-capability process: LTT_TRACE and 4 more LTT_* variables ignored (such a \
process takes no LTT_* setting from its environment, only the program's own ltt_start() options; doc/recorder.md)"
[ "$(cat err)" = "$want" ] || { printf 'stderr:\n%s\nwant:\n%s\n' "$(cat err)" "$want"; fail=1; }
# the program's own options still record (in discard mode: LTT_MODE=flight was not taken either)
"$LTT" dump "$pub/out/own" > dump 2> dump.err || { echo "the program's own trace:"; cat dump.err; fail=1; }
[ "$(grep -c 'app\.region_enter\|app\.region_leave' dump)" -eq 2 ] ||
	{ echo "the program's own trace: want its region"; head dump; fail=1; }
[ ! -d "$pub/out/own/flight" ] && [ ! -e "$pub/out/own/info/flight.xml" ] || { echo "flight mode taken from LTT_MODE"; fail=1; }
# no note when no LTT_* variable is set
env -i PATH=/usr/bin:/bin setpriv --reuid=65534 --regid=65534 --clear-groups "$pub/prog" > out 2> err
[ ! -s err ] || { echo "a note without LTT_* variables:"; cat err; fail=1; }
# the same program without the setuid bit: an ordinary process, LTT_TRACE applies
env -i PATH=/usr/bin:/bin LTT_TRACE="$pub/user/t" setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$pub/plain" "$pub/user/own" > out 2> err
grep -qx "euid=65534 ruid=65534 secure=0" out || { echo "plain program: $(head -n 1 out)"; fail=1; }
[ -d "$pub/user/t" ] && [ "$(stat -c %u "$pub/user/t")" = 65534 ] ||
	{ echo "plain program: LTT_TRACE not taken"; ls -la "$pub/user"; cat err; fail=1; }
# the rule holds for every variable libltt reads: no plain getenv() in libltt's sources
plain=$(grep -n '[^_a-z]getenv(' "$SRCDIR"/recorder/*.c "$SRCDIR"/recorder/*.h "$SRCDIR"/common/*.c | grep -v '^[^:]*:[0-9]*: *[/*]')
[ -z "$plain" ] || { echo "getenv() in libltt (secure_getenv() is the rule, recorder/secure_env.c):"; echo "$plain"; fail=1; }
[ $fail -eq 0 ] && echo ok
exit $fail
