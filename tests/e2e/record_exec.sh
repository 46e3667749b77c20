#!/bin/sh
# SPDX-License-Identifier: MIT
# A wrapper after `ltt record --` (taskset, env, nice, sh -c) gets libltt preloaded like any binary;
# at its exec libltt ends its recording as at exit and the exec'd program's libltt takes that trace in
# as before-exec/ (recorder/exec.c). The trace ltt record names is the program's; nothing is cut
# ("recording did not stop" nowhere), nothing is recorded twice (a program with libltt linked in
# statically and the preloaded libltt.so: one trace), function counts exact through every wrapper; an
# exec that fails goes on recording in a new trace, said on stderr; a shell that forks its command and
# ends with _exit (dash) leaves two complete traces.
set -u
calls="$BUILD/examples/calls_pg"
prog="$BUILD/tests/progs/kernel_prog"
[ -x "$calls" ] || { echo "skip: $calls not built (make examples)"; exit 77; }
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
command -v taskset > /dev/null || { echo "FAIL: taskset (util-linux) missing"; exit 1; }
tmp=$(mktemp -d /tmp/ltt-e2e-record-exec-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1	# calls_pg writes gmon.out where it runs
fail() { echo "FAIL: $*"; exit 1; }
case "${SANITIZE:-}" in *thread*)
	# a ThreadSanitizer libltt.so preloaded into a program built without TSan (taskset, env, nice,
	# sh) crashes in the TSan runtime at its start, with or without libtsan preloaded first
	echo "skip: a TSan libltt.so preloaded into an uninstrumented wrapper crashes in the TSan runtime"; exit 77 ;;
esac
# Under make asan the preloaded libltt.so is an ASan build: the ASan runtime first (record_preload.sh)
asan=
case "${SANITIZE:-}" in *address*)
	asan="LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=verify_asan_link_order=0:${ASAN_OPTIONS:-}" ;;
esac

# calls_pg's own counts: 10 outer, 100 middle, 100 leaf (examples/calls.c)
counts() {	# TRACE: "outer middle leaf" call counts
	"$LTT" stats --functions "$1" | awk '$NF == "outer" || $NF == "middle" || $NF == "leaf" { c[$NF] = $(NF - 8) }
		END { printf "%s %s %s", c["outer"], c["middle"], c["leaf"] }'
}
clean() {	# TRACE ERRFILE: complete, checked, nothing cut
	"$LTT" check "$1" > /dev/null 2>"$tmp/check.err" || fail "ltt check $1: $(cat "$tmp/check.err")"
	! grep -q 'did not stop' "$2" "$tmp/check.err" || fail "$1: cut: $(cat "$2")"
}

# 1. --functions through taskset, env and nice: the trace at -o is calls_pg's, the wrapper's before it
for w in "taskset -c 0" "env LTT_E2E_X=1" "nice -n 1"; do
	rm -rf "$tmp/f"
	# shellcheck disable=SC2086
	env $asan "$LTT" record -o "$tmp/f" --functions -- $w "$calls" > /dev/null 2> "$tmp/err" || fail "$w: $(cat "$tmp/err")"
	clean "$tmp/f" "$tmp/err"
	clean "$tmp/f/before-exec" "$tmp/err"
	[ "$(counts "$tmp/f")" = "10 100 100" ] || fail "$w: counts $(counts "$tmp/f") (want 10 100 100)"
	grep -q '^ltt_program="calls_pg"$' "$tmp/f/info/system.xml" || fail "$w: the trace is not calls_pg's"
	grep -q "^ltt_program=\"${w%% *}\"\$" "$tmp/f/before-exec/info/system.xml" || fail "$w: before-exec is not ${w%% *}'s"
	[ "$(grep -c 'trace written to' "$tmp/err")" = 1 ] || fail "$w: $(cat "$tmp/err")"
	grep -q "trace written to $tmp/f\$" "$tmp/err" || fail "$w: $(cat "$tmp/err")"
	! grep -q 'calls no function hook' "$tmp/err" || fail "$w: false advice: $(cat "$tmp/err")"
	[ ! -e "$tmp/f.1" ] || fail "$w: a second trace $tmp/f.1"
done

# 2. --kernel through taskset into a program linked with libltt: one trace (not the static copy's and
# the preloaded copy's), the program's, with its kernel events; DIR/ names it after the program
rm -rf "$tmp/k"
env $asan "$LTT" record -o "$tmp/k/" --kernel=switch -- taskset -c 0 "$prog" run 20 > /dev/null 2> "$tmp/err" ||
	fail "kernel: $(cat "$tmp/err")"
set -- "$tmp"/k/*
[ $# = 1 ] || fail "kernel: $# traces: $*"
case "$1" in */kernel_prog-*) ;; *) fail "kernel: the trace $1 is not the program's" ;; esac
clean "$1" "$tmp/err"
clean "$1/before-exec" "$tmp/err"
grep -q '^ltt_program="taskset"$' "$1/before-exec/info/system.xml" || fail "kernel: before-exec is not taskset's"
"$LTT" dump --event 'kernel.thread_switch' "$1" | grep -q . || fail "kernel: no switch of the program"

# 3. sh -c: dash forks the command and ends with _exit: the shell's trace and the command's, both whole
rm -rf "$tmp/s"
env $asan "$LTT" record -o "$tmp/s/" --functions -- sh -c "\"$calls\"; true" > /dev/null 2> "$tmp/err" ||
	fail "sh: $(cat "$tmp/err")"
n=0
for t in "$tmp"/s/*; do
	clean "$t" "$tmp/err"
	n=$((n + 1))
	case "$t" in */calls_pg-*) [ "$(counts "$t")" = "10 100 100" ] || fail "sh: counts $(counts "$t")" ;; esac
done
[ $n = 2 ] || fail "sh: $n traces"
# sh -c 'exec PROG': the shell's exec hands on
rm -rf "$tmp/x"
env $asan "$LTT" record -o "$tmp/x" --functions -- sh -c "exec \"$calls\"" > /dev/null 2> "$tmp/err" || fail "sh exec: $(cat "$tmp/err")"
clean "$tmp/x" "$tmp/err"
[ "$(counts "$tmp/x")" = "10 100 100" ] || fail "sh exec: counts $(counts "$tmp/x")"
[ -d "$tmp/x/before-exec" ] || fail "sh exec: no before-exec"

# 4. an exec that fails (a file that is not a program): recording goes on, said, and every trace whole
printf '\177ELF\002\001\001not a program' > "$tmp/bad"
chmod +x "$tmp/bad"
cat > "$tmp/try.c" <<EOF
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	char *const argv[] = { "bad", NULL };

	execv("$tmp/bad", argv);
	perror("execv");
	execlp("true", "true", "--", "x", (char *)NULL);	/* in PATH, a list */
	return 1;
}
EOF
cc -o "$tmp/try" "$tmp/try.c" || fail "cc"
rm -rf "$tmp/e"
env $asan "$LTT" record -o "$tmp/e/" --cpu-sample 10 -- "$tmp/try" > /dev/null 2> "$tmp/err" || fail "exec fails: $(cat "$tmp/err")"
grep -q "ltt: exec of $tmp/bad failed (Exec format error): recording goes on in $tmp/e/try-" "$tmp/err" ||
	fail "exec fails: not said: $(cat "$tmp/err")"
for t in "$tmp"/e/* "$tmp"/e/*/before-exec; do
	clean "$t" "$tmp/err"
done
set -- "$tmp"/e/*
[ $# = 2 ] || fail "exec fails: $# traces: $*"
[ "$(grep -c 'trace written to' "$tmp/err")" = 2 ] || fail "exec fails: $(cat "$tmp/err")"
echo "ok: taskset, env, nice, sh -c and a failed exec: the program's trace, the wrapper's inside, none cut"
