#!/bin/sh
# SPDX-License-Identifier: MIT
# The `ltt snapshot` registry under attack (issue 28, point 1): in a private mount namespace with a fresh
# 1777 tmpfs on /tmp and two users made here, the attacker creates the victim's /tmp/ltt-UID first (and
# root's), writes a flight-PID naming the victim's recording process with SIGKILL (9) in it, and a trace
# directory naming it. `ltt snapshot PID` (the victim) and `ltt snapshot TRACE` (root) must refuse with
# one line and leave the process alive; a symlinked directory and a registry file naming a signal libltt
# cannot register are refused too; with $XDG_RUNTIME_DIR the victim's own registry is found there and the
# snapshot taken. Before 26 Nov 2026 the process died of SIGKILL.
set -u
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (users, a mount namespace)"; exit 77; }
command -v unshare >/dev/null && command -v useradd >/dev/null && command -v setpriv >/dev/null ||
	{ echo "skip: unshare, useradd or setpriv missing"; exit 77; }
unshare -m true 2>/dev/null || { echo "skip: unshare -m not allowed here"; exit 77; }

tag=$$
victim="lttv$tag" attacker="ltta$tag"
# a build under /tmp (a clone in /tmp) would vanish under the fresh tmpfs: its top directory is bound
# through $keep (outside /tmp) back to its own path inside the namespace
top=
case $LTT in /tmp/*) top=/tmp/$(echo "${LTT#/tmp/}" | cut -d/ -f1) ;; esac
keep=
[ -z "$top" ] || keep=$(mktemp -d /run/ltt-e2e-keep-XXXXXX) || { echo "FAIL: mktemp in /run"; exit 1; }
cleanup() { userdel "$victim" 2>/dev/null; userdel "$attacker" 2>/dev/null; [ -z "$keep" ] || rmdir "$keep"; }
trap cleanup EXIT
useradd -M -N -s /bin/sh "$victim" && useradd -M -N -s /bin/sh "$attacker" || { echo "FAIL: useradd"; exit 1; }

# everything else inside the namespace: its /tmp is a fresh tmpfs (mode 1777) that vanishes with it
unshare -m --propagation private env LTT="$LTT" PROG="$prog" VICTIM="$victim" ATTACKER="$attacker" TOP="$top" KEEP="$keep" sh -c '
set -u
fail() { echo "FAIL: $*"; exit 1; }
pids=
stop_all() { [ -n "$pids" ] && kill -9 $pids 2>/dev/null; }	# the programs started here, by pid
trap stop_all EXIT
[ -z "$TOP" ] || mount --bind "$TOP" "$KEEP" || fail "bind $TOP"
mount -t tmpfs -o mode=1777 tmpfs /tmp || fail "mount tmpfs on /tmp"
[ -z "$TOP" ] || { mkdir "$TOP" && mount --bind "$KEEP" "$TOP"; } || fail "bind $TOP back under the new /tmp"
unset XDG_RUNTIME_DIR
vu=$(id -u "$VICTIM") vg=$(id -g "$VICTIM") au=$(id -u "$ATTACKER") ag=$(id -g "$ATTACKER")
as_v() { setpriv --reuid="$vu" --regid="$vg" --clear-groups -- "$@"; }
V="setpriv --reuid=$vu --regid=$vg --clear-groups --"	# (a function run with & would be a subshell: $! not the program)
as_a() { setpriv --reuid="$au" --regid="$ag" --clear-groups -- "$@"; }
start_of() { sed "s/.*) //" /proc/$1/stat | cut -d" " -f20; }
alive() { [ -d /proc/$1 ] && ! grep -q "^State:.*Z" /proc/$1/status; }

# 1. the attacker takes /tmp/ltt-VICTIM and /tmp/ltt-0 before anyone
as_a mkdir -m 755 "/tmp/ltt-$vu" /tmp/ltt-0 || fail "attacker mkdir"
mkdir -m 700 /tmp/v && chown "$vu:$vg" /tmp/v
$V env LTT_TRACE=/tmp/v/t LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 "$PROG" spin /tmp/v/progress &
pid=$!; pids="$pids $pid"
for i in $(seq 100); do [ -d /tmp/v/t/info ] && break; sleep 0.1; done
sleep 0.3
alive $pid || fail "the victim program did not start"
[ -e "/tmp/ltt-$vu/flight-$pid" ] && fail "libltt registered in the attacker directory"
st=$(start_of $pid)
printf "/tmp/v/t\n9\n%s\n" "$st" > /tmp/evil-reg
as_a cp /tmp/evil-reg "/tmp/ltt-$vu/flight-$pid"
out=$(as_v "$LTT" snapshot --timeout 2 $pid 2>&1); rc=$?
echo "victim: ltt snapshot $pid: $rc $out"
sleep 0.2
alive $pid || fail "ltt snapshot PID killed the victim program (SIGKILL from the attacker registry)"
[ $rc = 1 ] || fail "ltt snapshot PID: exit $rc, expected 1"
[ $(printf "%s\n" "$out" | wc -l) = 1 ] || fail "not one line: $out"
case "$out" in *"owned by user $au"*"not trusted"*) ;; *) fail "the refusal does not name the owner: $out" ;; esac

# 2. root, by a trace directory the attacker wrote naming the victim pid
as_a mkdir -p /tmp/evil/info
as_a sh -c "printf \"<system ltt_mode=\\\"flight\\\" ltt_pid=\\\"$pid\\\"/>\n\" > /tmp/evil/info/system.xml"
printf "/tmp/evil\n9\n%s\n" "$st" > /tmp/evil-reg0
as_a cp /tmp/evil-reg0 /tmp/ltt-0/flight-$pid
out=$("$LTT" snapshot --timeout 2 /tmp/evil 2>&1); rc=$?
echo "root: ltt snapshot /tmp/evil: $rc $out"
sleep 0.2
alive $pid || fail "ltt snapshot TRACE (root) killed the victim program"
[ $rc = 1 ] || fail "root ltt snapshot TRACE: exit $rc, expected 1"
case "$out" in *"/tmp/evil"*"not trusted"*) ;; *) fail "root: the refusal does not name the trace: $out" ;; esac
kill -9 $pid; wait $pid 2>/dev/null

# 3. a symlink in place of the directory (to a directory of the victim) is not followed
rm -rf "/tmp/ltt-$vu" /tmp/ltt-0
mkdir -m 700 /tmp/v/reg && chown "$vu:$vg" /tmp/v/reg
as_a ln -s /tmp/v/reg "/tmp/ltt-$vu"
$V env LTT_TRACE=/tmp/v/t2 LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 "$PROG" spin /tmp/v/progress2 &
pid=$!; pids="$pids $pid"
for i in $(seq 100); do [ -d /tmp/v/t2/info ] && break; sleep 0.1; done
sleep 0.3
[ -e /tmp/v/reg/flight-$pid ] && fail "libltt registered through a symlink"
printf "/tmp/v/t2\n9\n%s\n" "$(start_of $pid)" > /tmp/v/reg/flight-$pid; chown "$vu" /tmp/v/reg/flight-$pid
out=$(as_v "$LTT" snapshot --timeout 2 $pid 2>&1); rc=$?
echo "symlink: $rc $out"
alive $pid || fail "ltt snapshot followed the symlinked registry and killed the program"
case "$out" in *"symlink"*) ;; *) fail "symlink: $out" ;; esac
kill -9 $pid; wait $pid 2>/dev/null
rm -f "/tmp/ltt-$vu"

# 4. the victim own directory, a registry file naming SIGKILL (not a snapshot signal libltt registers)
mkdir -m 700 "/tmp/ltt-$vu" && chown "$vu:$vg" "/tmp/ltt-$vu"
$V env LTT_TRACE=/tmp/v/t3 LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 "$PROG" spin /tmp/v/progress3 &
pid=$!; pids="$pids $pid"
for i in $(seq 100); do [ -e "/tmp/ltt-$vu/flight-$pid" ] && break; sleep 0.1; done
[ -e "/tmp/ltt-$vu/flight-$pid" ] || { ls -la "/tmp/ltt-$vu" /tmp/v; fail "libltt did not register in the user own /tmp/ltt-UID"; }
sed -i "2s/.*/9/" "/tmp/ltt-$vu/flight-$pid"
out=$(as_v "$LTT" snapshot --timeout 2 $pid 2>&1); rc=$?
echo "signal 9: $rc $out"
alive $pid || fail "a registry naming SIGKILL was obeyed"
case "$out" in *"not a snapshot signal"*) ;; *) fail "signal 9: $out" ;; esac
kill -9 $pid; wait $pid 2>/dev/null
rm -rf "/tmp/ltt-$vu"

# 5. $XDG_RUNTIME_DIR first: the attacker owns /tmp/ltt-VICTIM again, the victim snapshot still works
as_a mkdir -m 777 "/tmp/ltt-$vu"
mkdir -m 700 /tmp/xdg && chown "$vu:$vg" /tmp/xdg
$V env XDG_RUNTIME_DIR=/tmp/xdg LTT_TRACE=/tmp/v/t4 LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 "$PROG" spin /tmp/v/progress4 &
pid=$!; pids="$pids $pid"
for i in $(seq 100); do [ -e /tmp/xdg/ltt/flight-$pid ] && break; sleep 0.1; done
[ -e /tmp/xdg/ltt/flight-$pid ] || fail "libltt did not register in \$XDG_RUNTIME_DIR/ltt"
as_a sh -c "cp /tmp/evil-reg /tmp/ltt-$vu/flight-$pid" 2>/dev/null
out=$(as_v env XDG_RUNTIME_DIR=/tmp/xdg "$LTT" snapshot --timeout 20 $pid 2>&1); rc=$?
echo "xdg: $rc $out"
alive $pid || fail "xdg: the program died"
[ $rc = 0 ] && [ "$(echo "$out" | head -n 1)" = /tmp/v/t4/snapshot-0001 ] || fail "xdg: no snapshot: $rc $out"
kill -9 $pid; wait $pid 2>/dev/null
echo "ok: the registry of another user, a symlink and a bad signal are refused; \$XDG_RUNTIME_DIR first"
'
