#!/bin/sh
# SPDX-License-Identifier: MIT
# mk/npm.sh DIR PACKAGE@VERSION...: installs the npm packages named into DIR/node_modules unless they
# are there at that version (npm's ordinary client, from the npm registry); installs Debian's npm first
# when there is no npm command (mk/deps.sh). Used by `make deps` and by the tests that need them.
set -u
dir=$1
shift
missing=
for p in "$@"; do
	name=${p%@*} ver=${p##*@}
	have=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$dir/node_modules/$name/package.json" 2>/dev/null)
	[ "$have" = "$ver" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
	sh "$(dirname "$0")/deps.sh" nodejs npm || exit 1
fi
mkdir -p "$dir" || exit 1
echo "deps: npm installing$missing into $dir"
[ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
# shellcheck disable=SC2086
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error $missing >/dev/null || {
	echo "deps: npm install$missing failed (into $dir)" >&2
	exit 1
}
