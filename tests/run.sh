#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every test given: Check suite binaries, end-to-end scripts (*.sh) and libFuzzer targets
# (fuzz_*). A test passes with exit 0, is skipped with exit 77 (it prints why), fails otherwise.
# Logs go to $BUILD/test-logs/; a failing test's log tail is printed. Ends with one line:
# "N passed, N failed, N skipped".
# LTT_TEST_FILTER="word ..." runs only the tests whose name contains one of the words.
# Each test runs with its own empty TMPDIR (/tmp/ltt-test-NAME.XXXXXX); a test that leaves anything in
# it fails, with the paths left behind named ("left behind by NAME: PATH"). Tests make their temporary
# files under $TMPDIR (mktemp -d, or getenv("TMPDIR") in C) and remove them, as well as the `ltt
# snapshot` registry files (/tmp/ltt-UID/flight-PID) of flight-mode processes they kill.
: "${BUILD:=build}" "${SRCDIR:=$(pwd)}" "${FUZZ_SECONDS:=3}"
TMPDIR_OF_RUN=${TMPDIR:-/tmp}
export BUILD SRCDIR LTT LTT_SHARED
logs="$BUILD/test-logs"
mkdir -p "$logs"
pass=0 fail=0 skip=0 failed=
for t in "$@"; do
	name=$(basename "$t" .sh)
	if [ -n "${LTT_TEST_FILTER:-}" ]; then
		hit=
		for w in $LTT_TEST_FILTER; do case "$name" in *"$w"*) hit=1 ;; esac; done
		[ -n "$hit" ] || continue
	fi
	log="$logs/$name.log"
	start=$(date +%s)
	tmp=$(mktemp -d "${TMPDIR_OF_RUN:-/tmp}/ltt-test-$name.XXXXXX") || { echo "run.sh: mktemp failed"; exit 1; }
	case "$t" in
	*.sh) TMPDIR=$tmp sh "$t" >"$log" 2>&1 ;;
	*/fuzz_*)
		corpus="$SRCDIR/tests/fuzz/corpus/${name#fuzz_}"
		work="$BUILD/fuzz/work-$name"
		mkdir -p "$work"
		# a crash, leak or timeout exits 1 (libFuzzer's own default, 77, would read as a skip); the
		# input that did it goes to $BUILD/fuzz/ (crash-*, leak-*, timeout-*)
		TMPDIR=$tmp "$t" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$BUILD/fuzz/" \
			"$work" "$corpus" >"$log" 2>&1 ;;
	*) TMPDIR=$tmp CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60} "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	left=$(find "$tmp" -mindepth 1 -maxdepth 2 2>/dev/null | head -n 5)
	# a flight-mode process killed without stopping leaves its `ltt snapshot` registry file
	# (/tmp/ltt-UID/flight-PID, first line its trace directory): a process given that pid later would
	# meet it. The test removes those of its processes (tests/e2e/lib/registry.sh); here they are
	# named and removed.
	reg=$(grep -l -F "$tmp/" "/tmp/ltt-$(id -u)"/flight-* 2>/dev/null)
	if [ -n "$reg" ]; then
		left=$(printf '%s\n%s' "$left" "$(echo "$reg" | head -n 5)" | sed '/^$/d')
		rm -f $reg
	fi
	if [ -n "$left" ]; then
		echo "$left" | sed "s|^|run.sh: left behind by $name: |" >> "$log"
		case $rc in 0|77) rc=99 ;; esac
		chmod -R u+rwx "$tmp" 2>/dev/null
	fi
	rm -rf "$tmp"
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); printf 'PASS  %-40s %3ds\n' "$name" "$secs"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); printf 'SKIP  %-40s %s\n' "$name" "$(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		printf 'FAIL  %-40s %3ds (exit %d, log %s)\n' "$name" "$secs" "$rc" "$log"
		if [ -n "$left" ]; then
			echo "      $name left files in its TMPDIR or the registry files of processes it killed (a test removes what it makes):"
			echo "$left" | sed "s|^$tmp|      - \$TMPDIR|"
		fi
		tail -n 25 "$log" | sed 's/^/      | /'
	fi
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
