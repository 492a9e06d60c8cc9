#!/usr/bin/env bash
# Build (once) a Debian sid chroot holding the real python3.14 (sid) and python3.15
# (experimental), for the ground-truth tests. Cached outside the repository; a finished
# chroot is marked by a stamp file so later runs cost nothing.
set -euo pipefail
root="${UTF8ENV_DEBIAN_ROOT:-/var/cache/utf8env/debian-sid}"
stamp="$root/.utf8env-ready"
# venv and ensurepip (Debian splits them off) for tests/test_entry.py's installs; added
# after the first chroots were built, so a cached chroot gets them once, by its own apt.
venv_stamp="$root/.utf8env-venv-ready"
add_venv() {
  chroot "$1" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o Acquire::Check-Valid-Until=false install -y -qq python3.14-venv python3.15-venv
  chroot "$1" apt-get clean
  chroot "$1" python3.14 -c 'import ensurepip'
  chroot "$1" python3.15 -c 'import ensurepip'
  touch "$1/.utf8env-venv-ready"
}
# libpython + gcc in the chroot, for tests/test_embedded_groundtruth.py (C programs linked
# to the chroot's libpython3.14/3.15, built by the chroot's own gcc).
embed_stamp="$root/.utf8env-embed-ready"
add_embed() {
  chroot "$1" env DEBIAN_FRONTEND=noninteractive \
    apt-get -o Acquire::Check-Valid-Until=false install -y -qq --no-install-recommends \
    libpython3.14-dev libpython3.15-dev gcc libc6-dev
  chroot "$1" apt-get clean
  test -e "$1/usr/include/python3.15/Python.h" -a -e "$1/usr/bin/gcc"
  touch "$1/.utf8env-embed-ready"
}
if [ -f "$stamp" ]; then
  [ -f "$venv_stamp" ] || { chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update -qq; add_venv "$root"; }
  [ -f "$embed_stamp" ] || { chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update -qq; add_embed "$root"; }
  echo "debian pythons: cached in $root"
  exit 0
fi

if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
# Use the mirror this machine's apt already uses (none is named here).
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)

rm -rf "$root.partial"
mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include=python3 sid "$root.partial" ${mirror:+"$mirror"}
echo "deb ${mirror:-http://deb.debian.org/debian} experimental main" \
  > "$root.partial/etc/apt/sources.list.d/experimental.list"
chroot "$root.partial" apt-get -o Acquire::Check-Valid-Until=false update -qq
chroot "$root.partial" env DEBIAN_FRONTEND=noninteractive \
  apt-get -o Acquire::Check-Valid-Until=false install -y -qq -t experimental python3.15
# localedef and the locale sources, so locale worlds are compiled by the chroot's own glibc.
chroot "$root.partial" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq locales
chroot "$root.partial" apt-get clean
chroot "$root.partial" python3.14 -c pass
chroot "$root.partial" python3.15 -c pass
add_venv "$root.partial"
add_embed "$root.partial"
rm -rf "$root"
mv "$root.partial" "$root"
touch "$stamp"
echo "debian pythons: built in $root"
