#!/usr/bin/env bash
# Build (once) a root file system made like Docker's debian:bookworm-slim image, for
# tests/test_places_container.py (tests/support/container.py enters it the way
# `docker run` does). Cached outside the repository; a finished image is marked by a
# stamp file so later runs cost nothing.
#
# Made like the image (debuerreotype's recipe, the parts that matter here): minbase,
# no `locales` package (so only glibc's built-in C.UTF-8), /var/lib/apt/lists empty
# (`RUN apt-get install X` without `apt-get update` fails, as it does on Docker Hub's
# image), /.dockerenv, apt's docker-* configuration, dpkg's slim path-excludes, and
# policy-rc.d (no service starts during `RUN apt-get install`).
set -euo pipefail
root="${UTF8ENV_DEBIAN_IMAGE:-/var/cache/utf8env/debian-bookworm-slim}"
stamp="$root/.utf8env-image-ready"
if [ -f "$stamp" ]; then
  echo "debian image: cached in $root"
  exit 0
fi

if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
# Use the mirrors this machine's apt already uses (none is named here).
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
security=$(awk '/^URIs:/ && /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$security" ] || security=$(awk '/^deb / && /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)

part="$root.partial"
rm -rf "$part"
mkdir -p "$(dirname "$root")"
# Slim's dpkg excludes, in place before debootstrap's second stage unpacks anything.
mkdir -p "$part/etc/dpkg/dpkg.cfg.d"
cat > "$part/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
# This is the "slim" variant of the Debian base image.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
EOF
echo force-unsafe-io > "$part/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
debootstrap --variant=minbase bookworm "$part" ${mirror:+"$mirror"}

# The image's sources (deb822, as debuerreotype writes them), on this machine's mirrors.
rm -f "$part/etc/apt/sources.list"
cat > "$part/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${mirror:-http://deb.debian.org/debian}
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${security:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# A snapshot mirror serves expired Release files; a fresh one does not mind.
cp /etc/apt/apt.conf.d/99artifact-registry "$part/etc/apt/apt.conf.d/" 2>/dev/null || true

# apt's docker-* configuration (debuerreotype-minimizing-config).
cat > "$part/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
echo 'Acquire::GzipIndexes "true";' > "$part/etc/apt/apt.conf.d/docker-gzip-indexes"
echo 'Acquire::Languages "none";' > "$part/etc/apt/apt.conf.d/docker-no-languages"
echo 'Apt::AutoRemove::SuggestsImportant "false";' > "$part/etc/apt/apt.conf.d/docker-autoremove-suggests"
printf '#!/bin/sh\nexit 101\n' > "$part/usr/sbin/policy-rc.d"
chmod 755 "$part/usr/sbin/policy-rc.d"

# What slim's excludes would have kept out of the packages debootstrap unpacked itself.
find "$part/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete 2>/dev/null || true
find "$part/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
rm -rf "$part"/usr/share/{groff,info,linda,lintian/overrides,locale,man}/* 2>/dev/null || true

# Shipped as the image is: no package lists, no caches, no logs of the build.
chroot "$part" apt-get clean
rm -rf "$part"/var/lib/apt/lists/* "$part"/var/cache/apt/*.bin "$part"/var/log/apt/* \
  "$part"/var/log/dpkg.log "$part"/var/log/bootstrap.log "$part"/var/cache/debconf/*-old \
  "$part"/tmp/* "$part"/root/.bash_history
mkdir -p "$part/var/lib/apt/lists/partial"
# What the container runtime supplies at `docker run` (resolv.conf, hosts, hostname) is
# bind-mounted by tests/support/container.py over empty files (the mount points, as in a
# container's own layer), not this machine's copies that debootstrap left.
rm -f "$part/etc/resolv.conf" "$part/etc/hostname"
: > "$part/etc/resolv.conf"; : > "$part/etc/hostname"; : > "$part/etc/hosts"
# What Docker writes into every container.
: > "$part/.dockerenv"

# The facts the tests rest on, checked once here.
if chroot "$part" dpkg -s locales >/dev/null 2>&1; then echo "locales is installed" >&2; exit 1; fi
[ -e "$part/usr/lib/locale/C.utf8/LC_CTYPE" ] || { echo "no C.utf8 in glibc" >&2; exit 1; }

rm -rf "$root"
mv "$part" "$root"
touch "$stamp"
echo "debian image: built in $root ($(du -sh --exclude=proc --exclude=sys "$root" | cut -f1))"
