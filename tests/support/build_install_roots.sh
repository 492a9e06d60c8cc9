#!/usr/bin/env bash
# Build (once) the two Debian roots tests/test_install_matrix.py installs the release's
# artifacts into, as a user of each would, with no C compiler in either:
#   debian-bullseye      the oldest release deb.debian.org still serves (glibc 2.31,
#                        Python 3.9, pip 20.3 from ensurepip): the oldest glibc of the
#                        manylinux baseline this machine can reach
#   debian-bookworm-pipx Debian 12 with its own pipx (1.1) and python3-venv, as a user
#                        installs them with apt
# Cached outside the repository; a finished root is marked by a stamp file.
set -euo pipefail
cache=/var/cache/utf8env
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
# The mirror this machine's apt already uses (none is named here).
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)

build() {   # build NAME SUITE PACKAGES...
  local root="$cache/$1" suite=$2
  shift 2
  if [ -f "$root/.utf8env-ready" ]; then
    echo "install root: cached in $root"
    return
  fi
  rm -rf "$root.partial"
  mkdir -p "$cache"
  debootstrap --variant=minbase --include="$(IFS=,; echo "$*")" "$suite" "$root.partial" \
    ${mirror:+"$mirror"} >/dev/null
  chroot "$root.partial" apt-get clean
  # What the tests rely on: a Python with venv, and no compiler.
  chroot "$root.partial" python3 -c 'import ensurepip, venv'
  if chroot "$root.partial" sh -c 'command -v cc || command -v gcc'; then
    echo "install root $1: a C compiler is installed" >&2
    exit 1
  fi
  touch "$root.partial/.utf8env-ready"
  rm -rf "$root"
  mv "$root.partial" "$root"
}
build debian-bullseye bullseye python3 python3-venv
build debian-bookworm-pipx bookworm python3 python3-venv pipx
