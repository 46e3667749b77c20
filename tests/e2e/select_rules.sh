#!/bin/sh
# SPDX-License-Identifier: MIT
# Event rules (LTT_EVENTS, ltt_events_set(); doc/recorder.md "Choosing events"): exact counts of
# selected and deselected events, `ltt stats` naming what was not selected, rules changed 200 times
# while 2 threads record (every missing event falls where recorded rules deselected it), bad rules,
# and the warning for a rule that matches nothing.
set -u
prog="$BUILD/tests/progs/select_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-select-rules-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# exact counts: a and c selected, b excluded by the later rule
LTT_TRACE="$tmp/t1" LTT_EVENTS="seltest.*, -seltest.b" "$prog" counts 1000 2>"$tmp/err" || fail "counts run"
[ -s "$tmp/err" ] && fail "stderr: $(cat "$tmp/err")"
out=$("$prog" check "$tmp/t1" 2>&1) || fail "check t1: $out"
[ "$(printf '%s\n' "$out" | head -1)" = "a=1000 b=0 c=1000 rules=1 lost=0" ] || fail "t1 counts: $out"
stats=$("$LTT" stats "$tmp/t1") || fail "stats t1"
printf '%s\n' "$stats" | grep -q "^  rules       [0-9.]* 'seltest.\*, -seltest.b': not selected seltest.b$" ||
	fail "stats t1 rules line: $(printf '%s\n' "$stats" | grep rules)"
# a list starting with an exclusion starts from everything; the last matching rule wins
LTT_TRACE="$tmp/t2" LTT_EVENTS="-seltest.*,seltest.?,-seltest.a,-seltest.b" "$prog" counts 700 || fail "t2 run"
out=$("$prog" check "$tmp/t2" | head -1)
[ "$out" = "a=0 b=0 c=700 rules=1 lost=0" ] || fail "t2 counts: $out"
"$LTT" stats "$tmp/t2" | grep -q "not selected seltest.a, seltest.b$" || fail "stats t2"
# no rules: everything, and stats says so
LTT_TRACE="$tmp/t3" "$prog" counts 5 || fail "t3 run"
[ "$("$prog" check "$tmp/t3" | head -1)" = "a=5 b=5 c=5 rules=1 lost=0" ] || fail "t3 counts"
"$LTT" stats "$tmp/t3" | grep -q "^  rules       [0-9.]* '': every event selected$" || fail "stats t3"
# the same in --format=json: rules (time, settle_ns, rules, not_selected) and trigger null
command -v jq > /dev/null || fail "jq missing: make deps installs it"
for t in t1:'["seltest.b"]' t2:'["seltest.a","seltest.b"]' t3:'[]'; do
	got=$("$LTT" stats --format=json "$tmp/${t%%:*}" | jq -c '[(.rules | length), .rules[0].not_selected, .trigger,
		(.rules[0].time | test("^[0-9]+\\.[0-9]{9}$")), (.rules[0].settle_ns | type)]') || fail "stats json ${t%%:*}"
	[ "$got" = "[1,${t#*:},null,true,\"number\"]" ] || fail "stats json ${t%%:*}: $got"
done
[ "$("$LTT" stats --format=json "$tmp/t1" | jq -r '.rules[0].rules')" = "seltest.*, -seltest.b" ] || fail "stats json t1 rules"

# rules changed while 2 threads record: each missing a(i) lies where a recorded change deselected it
LTT_TRACE="$tmp/t4" LTT_BLOCKS=64 "$prog" change 200 || fail "change run"
out=$("$prog" check "$tmp/t4") || fail "check t4: $out"
set -- $(printf '%s\n' "$out" | tr '=' ' ')
# a=N b=N c=N rules=K lost=L unexplained=U missing=M
[ "$8" = 201 ] || fail "t4: $8 rule records, 201 expected: $out"
[ "${10}" = 0 ] || fail "t4: events lost, the check needs none: $out"
[ "${12}" = 0 ] || fail "t4: $out"
[ "${14}" -gt 0 ] && [ "$2" -gt 0 ] || fail "t4: the rules never took effect: $out"
[ "$(($2 + ${14}))" -le "$4" ] || fail "t4: more a than b: $out"

# pause/resume closes the same flags (recorder/rules.h ltt_events_gate): the paused third is missing
LTT_TRACE="$tmp/tp" LTT_EVENTS="-seltest.c" "$prog" pause 300 || fail "pause run"
[ "$("$prog" check "$tmp/tp" 2>/dev/null | head -1)" = "a=600 b=600 c=0 rules=1 lost=0" ] ||
	fail "pause: $("$prog" check "$tmp/tp" 2>&1)"

# bad rules: one line, untraced
err=$(LTT_TRACE="$tmp/t5" LTT_EVENTS="seltest.a,,seltest.b" "$prog" counts 1 2>&1)
[ "$err" = "ltt: event rules 'seltest.a,,seltest.b': an empty rule at byte 10 (two commas, a comma at an end, or '-' alone); not tracing" ] ||
	fail "bad rules: '$err'"
[ -e "$tmp/t5" ] && fail "bad rules: a trace was made"
err=$(LTT_TRACE="$tmp/t6" LTT_EVENTS="seltest.a/b" "$prog" counts 1 2>&1)
[ "$err" = "ltt: event rules 'seltest.a/b': rule 'seltest.a/b': '/' is not a letter, digit, '_', '.', '*' or '?'; not tracing" ] ||
	fail "bad character: '$err'"
[ "$("$prog" set 'seltest.a b')" = -22 ] || fail "ltt_events_set accepted a bad list"
# a rule matching nothing known: one warning line, the rest applies
err=$(LTT_TRACE="$tmp/t7" LTT_EVENTS="nosuch.*,seltest.c" "$prog" counts 3 2>&1)
[ "$err" = "ltt: LTT_EVENTS: rule 'nosuch.*' matches no event of the registered facilities" ] ||
	fail "unmatched warning: '$err'"
[ "$("$prog" check "$tmp/t7" | head -1)" = "a=0 b=0 c=3 rules=1 lost=0" ] || fail "t7 counts"
echo ok
