#!/bin/sh
# SPDX-License-Identifier: MIT
# Child processes traced with LTT_TRACE naming a directory: one trace per process (the parent and
# its two children, tests/progs/app_child.c), and `ltt dump` of the three merges them in time
# order: each child's events between the parent's child_start and child_exit, children at depth d1
# with the parent's session id before their own.
set -u
prog="$BUILD/tests/progs/app_child"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/traces"
(cd "$(dirname "$prog")" && LTT_TRACE="$dir/traces" ./app_child) || { echo "app_child failed"; exit 1; }
n=$(ls "$dir/traces" | wc -l)
[ "$n" -eq 3 ] || { echo "$n traces, not 3:"; ls "$dir/traces"; exit 1; }

"$LTT" dump --format=normal --brief "$dir"/traces/* >"$dir/normal" || exit 1
sed -E -e 's/[0-9]\.[0-9]{6}/S.SSSSSS/g' -e 's/pid:[0-9]+/pid:PID/' -e '/^version /d' "$dir/normal" >"$dir/got"
cat >"$dir/want" <<'EOT'
start ./app_child
cmd_name parent (parent)
child_start[0] ./app_child child 0
start ./app_child child 0
cmd_name child (parent/child)
exit elapsed:S.SSSSSS code:0
atexit elapsed:S.SSSSSS code:0
child_exit[0] pid:PID code:0 elapsed:S.SSSSSS
child_start[1] ./app_child child 1
start ./app_child child 1
cmd_name child (parent/child)
exit elapsed:S.SSSSSS code:1
atexit elapsed:S.SSSSSS code:1
child_exit[1] pid:PID code:1 elapsed:S.SSSSSS
exit elapsed:S.SSSSSS code:0
atexit elapsed:S.SSSSSS code:0
EOT
diff -u "$dir/want" "$dir/got" || { echo "merged normal output differs"; exit 1; }
[ "$(grep -c '^version ' "$dir/normal")" -eq 3 ] || { echo "not one version per process"; exit 1; }

# depth: the children's lines are d1, the parent's d0
"$LTT" dump --format=perf --brief "$dir"/traces/* >"$dir/perf" || exit 1
[ "$(grep -c '^d1 | main .*| region_enter' "$dir/perf")" -eq 2 ] || { echo "children not at d1"; cat "$dir/perf"; exit 1; }
[ "$(grep -c '^d0 ' "$dir/perf")" -eq 9 ] || { echo "parent lines not 9 at d0"; cat "$dir/perf"; exit 1; }

# session ids: each child's is the parent's, a slash, its own
"$LTT" dump --format=event --brief "$dir"/traces/* >"$dir/event" || exit 1
psid=$(grep '"event":"cmd_name"' "$dir/event" | grep '"name":"parent"' | sed -E 's/.*"sid":"([^"]*)".*/\1/')
[ -n "$psid" ] || { echo "no parent sid"; exit 1; }
[ "$(grep -c "\"sid\":\"$psid/[^\"/]*\"" "$dir/event")" -eq 16 ] ||
	{ echo "children's events do not carry sid $psid/..."; cat "$dir/event"; exit 1; }
echo ok
