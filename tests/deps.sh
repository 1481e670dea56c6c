#!/bin/sh
# Installs the Debian packages named on the command line that are not installed yet:
# with apt-get as root, through sudo otherwise; without either, prints the command to run.
quiet=0
[ "$1" = "--quiet" ] && { quiet=1; shift; }
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	[ $quiet -eq 1 ] || echo "deps: all build and test dependencies are installed"
	exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing:$missing (no apt-get here; install them with your package manager)" >&2
	exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1; then
	sudo=sudo
else
	echo "deps: missing:$missing; run as root: apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends $missing
