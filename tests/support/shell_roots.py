"""Where doctor's shell context can be seen on a machine that is a Docker container, and
the stock start-up files real shells read.

doctor reports the shell context only where no container is seen, and this machine may
be a Docker container (/.dockerenv). `no_container_words` gives the words that run a
command in a private mount namespace (unshare --mount) chrooted into a root made of this
one's top-level entries, every one bind-mounted (rbind) except /.dockerenv: the same
files, processes and paths, without the marker. Its top folder is open to every user, as
a real / is (mktemp -d makes it root's alone: a user's process chrooted there could not
look at /)."""
import hashlib
import os
import shutil
import subprocess

import pytest

from support import machine

_HIDE = r"""set -e
new=$(mktemp -d "$1/root.XXXXXX"); shift
chmod 755 "$new"
mount --make-rprivate /
for entry in /* /.[!.]*; do
  name=${entry#/}
  [ "$name" = .dockerenv ] && continue
  [ -e "$entry" ] || [ -L "$entry" ] || continue
  if [ -L "$entry" ]; then ln -s "$(readlink "$entry")" "$new/$name"
  elif [ -d "$entry" ]; then mkdir "$new/$name"; mount --rbind "$entry" "$new/$name"
  else : > "$new/$name"; mount --bind "$entry" "$new/$name"; fi
done
exec "$CHROOT" "$new" "$@"
"""


def no_container_words(folder):
    """The words to put in front of a command so that it runs without /.dockerenv, the
    script and roots made in `folder` (a pathlib folder of the test's); none where there
    is no /.dockerenv; a skip where it cannot be hidden."""
    if os.path.exists("/run/.containerenv"):
        pytest.skip("a Podman container (/run/.containerenv): this test hides only /.dockerenv")
    if not os.path.exists("/.dockerenv"):
        return []
    machine.mount_namespace("a root without /.dockerenv (the shell context)")
    chroot = machine.command("chroot", "coreutils")
    unshare = machine.command("unshare", "util-linux")
    roots = folder / "roots"
    roots.mkdir()
    script = folder / "no-dockerenv.sh"
    script.write_text(_HIDE.replace('"$CHROOT"', chroot))
    return [unshare, "--mount", "--propagation", "private", "/bin/sh", str(script), str(roots)]


def stock_home(folder):
    """A HOME holding Debian's stock ~/.bashrc and ~/.profile (bash's conffiles in
    /etc/skel, their md5sums as dpkg recorded them)."""
    if not shutil.which("dpkg-query"):
        pytest.skip("no dpkg-query: a Debian system (dpkg) says which ~/.bashrc is stock")
    recorded = subprocess.run(["dpkg-query", "-W", "-f=${Conffiles}", "bash"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    sums = {line.split()[0]: line.split()[1] for line in recorded.stdout.decode().splitlines()
            if len(line.split()) >= 2}
    folder.mkdir()
    for name in (".bashrc", ".profile"):
        path = "/etc/skel/" + name
        if not os.path.isfile(path):
            pytest.skip("no %s: apt-get install bash (Debian's stock start-up files)" % path)
        with open(path, "rb") as f:
            content = f.read()
        if sums.get(path) != hashlib.md5(content).hexdigest():
            pytest.skip("%s is not Debian's stock file (dpkg's md5sum differs, or no dpkg)" % path)
        (folder / name).write_bytes(content)
    return folder
