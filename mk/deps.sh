#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the missing Debian packages named as arguments (as root, with apt-get), or fails
# naming exactly the packages to install.
missing=
for p in "$@"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$st" in *" installed") ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: not a Debian system; install the equivalents of:$missing" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing Debian packages; as root run: apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends $missing; then
	apt-get update -q && apt-get install -y -q --no-install-recommends $missing || {
		echo "deps: apt-get failed; install by hand: apt-get install -y$missing" >&2
		exit 1
	}
fi
