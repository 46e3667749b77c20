#!/bin/sh
# SPDX-License-Identifier: MIT
# Traces that hold other users' data are private (issue 32, point 3; doc/recorder.md "Private
# traces"): a --system trace, written by root under umask 022, has every directory 0700 and every file
# 0600, in discard and in flight mode (its snapshot); so have its pack (the archive 0600, its entries
# 0700/0600), what ltt unpack makes of that (even after the archive was made 0644), a directory export
# (ctf) and a file export (chrome-json), ltt sql --save, and the trace ltt recover rebuilds from the
# ring file of a killed --system flight recording. Before 28 Nov 2026 they were 0755/0644:
# any local user read other users' system-call arguments and kernel addresses that perf at
# perf_event_paranoid 2 refuses them. The same program without kernel events keeps the umask's modes.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; reg_forget "$work/rk"; rm -rf "$work"' EXIT
prog="$BUILD/tests/progs/kernel_prog"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root for --system (CI runs as root)"; exit 77; }
umask 022
# private WHAT PATH: every directory 0700 and file 0600 beneath PATH (PATH itself included)
private() {
	[ -e "$2" ] || { echo "$1: $2 missing"; fail=1; return; }
	bad=$(find "$2" \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) -printf '%m %p\n' | head -5)
	[ -z "$bad" ] || { echo "$1: not private:"; echo "$bad"; fail=1; }
}
"$LTT" record -o sys --kernel=sched,syscalls --system -- "$prog" run 20 > out 2> err ||
	{ echo "record --system:"; cat err; exit 1; }
[ -s sys/kernel/0 ] || [ -s sys/kernel/1 ] || { echo "no kernel events in the --system trace"; ls -lR sys; fail=1; }
private "--system trace" sys
LTT_SNAPSHOT_AT_EXIT=1 "$LTT" record -o fl --mode flight --kernel=sched --system -- "$prog" run 20 > out 2> err ||
	{ echo "record --mode flight --system:"; cat err; fail=1; }
ls -d fl/snapshot-* > /dev/null 2>&1 || { echo "flight: no snapshot taken"; ls -l fl; cat err; fail=1; }
private "--system flight trace" fl
"$LTT" record -o plain -- "$prog" run 20 > out 2> err || { echo "record:"; cat err; exit 1; }
check "a trace without kernel events keeps the umask" "$(stat -c %a plain plain/info/system.xml)" "755
644"
# packs, unpacked copies, exports, saved databases of it
"$LTT" pack -o sys.tar.gz sys > /dev/null 2>&1 || { echo "pack failed"; fail=1; }
private "pack" sys.tar.gz
entries=$(tar -tvzf sys.tar.gz | awk '{print $1}' | sort -u | paste -sd' ')
check "the pack's entries" "$entries" "-rw------- drwx------"
"$LTT" unpack sys.tar.gz -o un > /dev/null 2> err || { echo "unpack:"; cat err; fail=1; }
private "unpacked" un
chmod 0644 sys.tar.gz	# the archive shared by hand: its entries still say private
"$LTT" unpack sys.tar.gz -o un2 > /dev/null 2> err || { echo "unpack:"; cat err; fail=1; }
private "unpacked from a 0644 archive" un2
"$LTT" pack -o plain.tar.gz plain > /dev/null 2>&1 && "$LTT" unpack plain.tar.gz -o plainun > /dev/null 2>&1
check "pack and unpack of a trace that is not private" "$(stat -c %a plain.tar.gz plainun plainun/info/system.xml)" "644
755
644"
"$LTT" export --format=ctf -o sys.ctf sys > /dev/null 2> err || { echo "export ctf:"; cat err; fail=1; }
private "ctf export" sys.ctf
"$LTT" export --format=chrome-json -o sys.json sys > /dev/null 2> err || { echo "export chrome-json:"; cat err; fail=1; }
private "chrome-json export" sys.json
"$LTT" export --format=chrome-json -o plain.json plain > /dev/null 2>&1
check "export of a trace that is not private" "$(stat -c %a plain.json)" "644"
"$LTT" sql --save sys.db sys > /dev/null 2> err || { echo "sql --save:"; cat err; fail=1; }
private "ltt sql --save" sys.db
# ltt recover of a killed --system flight recording's ring file (it says nothing of whose events it
# holds: a ring file with kernel rings gives a private trace)
mkdir shm
LTT_TRACE="$work/rk" LTT_MODE=flight LTT_SHM_DIR="$work/shm" LTT_KERNEL=sched LTT_KERNEL_SCOPE=system \
	"$BUILD/tests/progs/flight_prog" spin "$work/progress" > /dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && ! [ -s progress ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
kill -9 $pid; wait $pid 2>/dev/null; pid=
"$LTT" recover shm/ltt-*.ring -o rec > /dev/null 2> err || { echo "recover:"; cat err; fail=1; }
reg_forget "$work/rk"
[ -d rec/kernel ] || { echo "recover: no kernel/ in the rebuilt trace"; ls -l rec; fail=1; }
private "ltt recover of a --system ring file" rec
[ $fail -eq 0 ] && echo ok
exit $fail
