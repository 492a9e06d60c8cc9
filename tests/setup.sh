#!/usr/bin/env bash
# Everything the test suite needs on a fresh machine of this kind (run as root):
# the package with its test dependencies, debootstrap, and the Debian chroot holding
# the real python3.14 and python3.15 (built once, cached outside the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e '.[test]'
if ! command -v debootstrap >/dev/null || [ ! -d /usr/share/i18n/locales ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap locales >/dev/null
fi
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
bash tests/support/build_debian_pythons.sh
