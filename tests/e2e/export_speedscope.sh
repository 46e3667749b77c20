#!/bin/sh
# SPDX-License-Identifier: MIT
# The profile viewers' exports of the demo (examples/demo.c recorded with stack samples, as `make demo`
# does), checked against ltt's own counts and rendered by the real speedscope (npm `speedscope`,
# installed by `make deps` or here with mk/npm.sh) in headless chromium:
# - chrome-json: every "E" names its region and, per thread, closes the innermost "B" of that name
#   (B/E balanced per thread); a "B" carries no args, so speedscope's frames (name + args) are one per
#   label; the enter's fields are the "E"'s args;
# - speedscope: per thread a sampled profile whose samples and weights are the decodable stack samples
#   and their ticks (ltt stats --profile's counts, in ns at the sampling rate) and an evented profile
#   whose balanced open/close events are the thread's regions;
# - folded: the ticks of the lines add up to ltt stats --profile's;
# - both JSON files drawn by speedscope: a screenshot whose flame chart area has coloured pixels,
#   where a chrome-json with its "E" names taken out (the old export) draws none.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
: "${NPM_DIR:?}" "${NPM_PKGS:?}"
sh "$SRCDIR/mk/npm.sh" "$NPM_DIR" $NPM_PKGS || exit 1
ss="$NPM_DIR/node_modules/speedscope/dist/release"
[ -f "$ss/index.html" ] || { echo "no speedscope release in $ss"; exit 1; }

"$LTT" record -o "$work/t" --stack-sample 1000 -- "$BUILD/examples/demo" 60000 3 >rec.out 2>&1 ||
	{ echo "ltt record failed:"; cat rec.out; exit 1; }
trace=$(sed -n 's/^ltt record: trace written to //p' rec.out)
[ -d "$trace" ] || { echo "no trace:"; cat rec.out; exit 1; }

"$LTT" export --format=chrome-json -o demo.json "$trace" 2>err || { cat err; exit 1; }
"$LTT" export --format=speedscope -o demo.speedscope.json "$trace" 2>err || { cat err; exit 1; }
"$LTT" export --format=folded -o demo.folded "$trace" 2>err || { cat err; exit 1; }

# ---- chrome-json: E names, balance per thread, B without args
check "E events without a name" "$(jq '[.traceEvents[] | select(.ph == "E" and (.name | type) != "string")] | length' demo.json)" 0
bad=$(jq -r '[.traceEvents[] | select(.ph == "B" or .ph == "E")] | group_by([.pid, .tid])[] |
	reduce .[] as $e ({s: [], bad: 0};
		if $e.ph == "B" then .s += [$e.name]
		elif (.s | length) > 0 and .s[-1] == $e.name then .s |= .[:-1]
		else .bad += 1 end) | .bad + (.s | length)' demo.json | awk '{ s += $1 } END { print s + 0 }')
check "B/E not balanced by name per thread" "$bad" 0
check "B events with args" "$(jq '[.traceEvents[] | select(.ph == "B" and has("args"))] | length' demo.json)" 0
"$LTT" dump --format=json --event app.region_enter "$trace" > enter.json
check "region labels (one frame each)" "$(jq -r '.traceEvents[] | select(.ph == "B") | .name + " " + (.args | tojson)' demo.json | sort -u | tr '\n' ' ')" \
	"$(jq -r '.fields.label + " null"' enter.json | sort -u | tr '\n' ' ')"
check "E args: the enter's fields" "$(jq -c '[.traceEvents[] | select(.ph == "E")][0].args' demo.json)" \
	"$(jq -c '.fields' enter.json | grep "\"tid\":$(jq '[.traceEvents[] | select(.ph == "E")][0].tid' demo.json)," | head -n 1)"

# ---- ground truth: ltt stats --profile
"$LTT" stats --profile "$trace" > prof.txt || exit 1
line=$(head -n 1 prof.txt)
samples=$(echo "$line" | sed -n 's/^profile: \([0-9]*\) stack samples, \([0-9]*\) ticks at \([0-9]*\) Hz.*; \([0-9]*\) samples without.*/\1 \2 \3 \4/p')
set -- $samples
[ $# = 4 ] || { echo "cannot read: $line"; exit 1; }
known=$(($1 - $4)) ticks=$2 hz=$3
[ "$known" -ge 3 ] || { echo "only $known stack samples: $line"; fail=1; }

# ---- speedscope's file
S=demo.speedscope.json
check "schema" "$(jq -r '."$schema"' $S)" "https://www.speedscope.app/file-format-schema.json"
check "samples" "$(jq '[.profiles[] | select(.type == "sampled") | .samples | length] | add' $S)" "$known"
check "weights (ns)" "$(jq '[.profiles[] | select(.type == "sampled") | .weights[]] | add' $S)" "$((ticks * (1000000000 / hz)))"
check "weights per sample" "$(jq '[.profiles[] | select(.type == "sampled") | select((.samples | length) != (.weights | length))] | length' $S)" 0
check "frames in range" "$(jq '(.shared.frames | length) as $n | [.profiles[] | (.samples // [] | .[][]), (.events // [] | .[].frame) | select(. < 0 or . >= $n)] | length' $S)" 0
check "samples in the demo's worker function" "$(jq '.shared.frames as $f | [.profiles[] | select(.type == "sampled") | .samples[] | select([$f[.[]].name] | index("worker"))] | length > 0' $S)" true
check "evented opens" "$(jq '[.profiles[] | select(.type == "evented") | .events[] | select(.type == "O")] | length' $S)" "$(wc -l < enter.json | tr -d ' ')"
bad=$(jq '[.profiles[] | select(.type == "evented") | reduce .events[] as $e ({s: [], t: 0, bad: 0};
	.bad += (if $e.at < .t then 1 else 0 end) | .t = $e.at |
	if $e.type == "O" then .s += [$e.frame] elif (.s | length) > 0 and .s[-1] == $e.frame then .s |= .[:-1]
	else .bad += 1 end) | .bad + (.s | length)] | add' $S)
check "evented balance" "$bad" 0

# ---- folded
check "folded ticks" "$(awk '{ s += $NF } END { print s + 0 }' demo.folded)" "$ticks"
check "folded stacks through worker" "$(grep -c '^worker;.*;start_thread;.*;worker' demo.folded | awk '{ print ($1 > 0) }')" 1

# ---- drawn by speedscope
shot() { node "$SRCDIR/tests/e2e/lib/speedscope_shot.js" "$ss" "$1" "$2" | sed -n 's/^pixels 1200 800 flame //p'; }
n=$(shot demo.speedscope.json s.png)
[ -n "$n" ] && [ "$n" -ge 5000 ] || { echo "speedscope drew the speedscope export blank: '$n' coloured pixels"; fail=1; }
n=$(shot demo.json c.png)
[ -n "$n" ] && [ "$n" -ge 5000 ] || { echo "speedscope drew the chrome-json export blank: '$n' coloured pixels"; fail=1; }
jq -c '.traceEvents |= map(if .ph == "E" then del(.name, .cat, .args) else . end)' demo.json > noname.json
n=$(shot noname.json n.png)
check "coloured pixels of E events without names (nothing drawn)" "$n" 0
exit $fail
