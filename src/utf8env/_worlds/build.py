"""The compiled locales of the worlds, kept in the user's cache and reused across runs.

    $XDG_CACHE_HOME/utf8env/locales (else ~/.cache/utf8env/locales), mode 0700, the user's
      ROOTKEY/LOCALE/          one compiled locale (localedef -i INPUT -f CHARMAP)
      ROOTKEY/worlds/WORLD/    a world's locales, hard links of the above: LOCPATH names
                               this folder, or a mount puts it over /usr/lib/locale

ROOTKEY names the root ("/" or a chroot) and its localedef: the compiled format depends
on the glibc version, so every root gets folders compiled by its own localedef, and a
new glibc gets new folders. Several runs may build at once: each builds in a temporary
folder beside the final one and renames it into place; the first rename wins and the
others drop their copy, so a folder that exists is complete. Where no cache folder of
this user's can be had (HOME not ours, as under sudo), the folders are built in a
temporary folder of this process, removed when it exits.
"""
import atexit
import errno
import hashlib
import os
import shutil
import stat
import subprocess
import tempfile

from .catalog import LOCALE, world as _world
from .._environment import user_environ
from .._errors import WorldError

SOURCES = "/usr/share/i18n"


def cache_folder(environ=None):
    """The folder of compiled locales: $XDG_CACHE_HOME/utf8env/locales (an absolute
    XDG_CACHE_HOME), else $HOME/.cache/utf8env/locales; made 0700 where missing. None
    where it would not be this user's own (a folder of another user on the way, a
    symlink of another user's) or where LOCPATH could not name it (a ':' in the path)."""
    environ = user_environ() if environ is None else environ
    xdg = environ.get("XDG_CACHE_HOME") or ""
    if xdg.startswith("/"):
        folder = _own_folder(xdg, ("utf8env", "locales"), make_named=True)
    else:
        home = environ.get("HOME") or ""
        if not home.startswith("/"):
            return None
        folder = _own_folder(home, (".cache", "utf8env", "locales"), make_named=False)
    if folder is None or ":" in folder:
        return None
    return folder


def _own_folder(named, below, make_named):
    """`named`/`below`..., every part this user's (a symlink too, and what it points
    to), the missing ones made 0700; None where that cannot be."""
    euid = os.geteuid()
    path, missing = os.path.normpath(named), []
    while not os.path.lexists(path):
        if not make_named or path == "/":
            return None
        path, name = os.path.split(path)
        missing.insert(0, name)
    try:
        if os.stat(path).st_uid != euid or not os.path.isdir(path):
            return None
        for name in missing + list(below):
            path = os.path.join(path, name)
            try:
                os.mkdir(path, 0o700)
                os.chmod(path, 0o700)           # whatever the umask
            except FileExistsError:
                pass
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                if st.st_uid != euid:
                    return None
                st = os.stat(path)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != euid:
                return None
    except OSError:
        return None
    return path


_TEMPORARY = []


def _temporary_cache():
    """A folder of this process for the compiled locales, removed at its exit."""
    if not _TEMPORARY:
        folder = tempfile.mkdtemp(prefix="utf8env-locales-")
        _TEMPORARY.append(folder)
        atexit.register(shutil.rmtree, folder, True)
    return _TEMPORARY[0]


def store(cache=None):
    """The folder to build in: `cache`, else the user's cache folder, else a temporary one."""
    return cache or cache_folder() or _temporary_cache()


def root_key(root):
    """The cache folder name of `root`'s compiled locales: its path and its localedef."""
    real = os.path.realpath(root)
    localedef = os.path.join(real, "usr/bin/localedef")
    try:
        st = os.stat(localedef)
    except OSError:
        raise WorldError("no localedef in {}: glibc's locale compiler (Debian: apt-get "
                         "install libc-bin)".format(real if real != "/" else "/usr/bin"))
    digest = hashlib.sha1("{}\0{}\0{}".format(real, st.st_size, st.st_mtime_ns).encode())
    name = "host" if real == "/" else real.strip("/").replace("/", "_")
    return "{}-{}".format(name, digest.hexdigest()[:10])


def sources_missing(root, folder):
    """Why `root` cannot compile the locale `folder`, or None."""
    if folder == "C.utf8" and os.path.isdir(os.path.join(root, "usr/lib/locale/C.utf8")):
        return None
    loc = LOCALE[folder]
    base = os.path.join(root, SOURCES.lstrip("/"))
    where = "" if os.path.realpath(root) == "/" else " of the chroot " + root
    charmaps = os.path.join(base, "charmaps", loc.charmap)
    if not (os.path.isfile(charmaps) or os.path.isfile(charmaps + ".gz")):
        return ("glibc's charmap {} is not installed{} ({}/charmaps): install glibc's "
                "locale sources (Debian, Ubuntu: apt-get install locales)".format(
                    loc.charmap, where, SOURCES))
    if not os.path.isfile(os.path.join(base, "locales", loc.input)):
        return ("glibc's locale source {} is not installed{} ({}/locales): install "
                "glibc's locale sources (Debian, Ubuntu: apt-get install locales)".format(
                    loc.input, where, SOURCES))
    return None


def world_folder(name, root="/", cache=None):
    """The folder of world `name` for `root`, built (with the locales it needs) where
    it is not yet in the cache. WorldError, naming the world, when it cannot be built."""
    w = _world(name)
    if w.folders is None:
        return None
    base = os.path.join(store(cache), root_key(root))
    final = os.path.join(base, "worlds", name)
    if os.path.isdir(final):
        return final
    os.makedirs(os.path.join(base, "worlds"), mode=0o700, exist_ok=True)
    os.chmod(base, 0o700)
    for folder in w.folders:
        why = sources_missing(root, folder)
        if why:
            raise WorldError("world {!r} cannot be made here: {}".format(name, why))
    built = [_locale(root, base, folder, name) for folder in w.folders]
    work = tempfile.mkdtemp(prefix=".build-", dir=os.path.join(base, "worlds"))
    try:
        os.chmod(work, 0o755)       # a mount over /usr/lib/locale shows its mode
        for folder, path in zip(w.folders, built):
            # Hard links: each world costs nothing more than its locales.
            shutil.copytree(path, os.path.join(work, folder), symlinks=True,
                            copy_function=os.link)
        _publish(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return final


def _publish(work, final):
    """Rename `work` to `final` unless another run got there first."""
    try:
        os.rename(work, final)
    except OSError as error:
        if error.errno not in (errno.EEXIST, errno.ENOTEMPTY) or not os.path.isdir(final):
            raise


def _locale(root, base, folder, world_name):
    final = os.path.join(base, folder)
    if os.path.isdir(final):
        return final
    work = tempfile.mkdtemp(prefix=".build-", dir=base)
    try:
        out = os.path.join(work, folder)
        installed = os.path.join(root, "usr/lib/locale", folder)
        if folder == "C.utf8" and os.path.isdir(installed):
            # The root's own C.utf8 is the most faithful copy of it.
            shutil.copytree(installed, out, symlinks=True)
        else:
            _compile(root, LOCALE[folder], out, world_name)
        os.chmod(work, 0o755)
        _publish(out, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return final


def _compile(root, loc, out, world_name):
    """localedef of `root` writes `loc` to `out` (a host path)."""
    environ = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL": "C"}
    if os.path.realpath(root) == "/":
        cmd, target, where, inside = ["localedef"], out, out, None
    else:
        # The chroot's own localedef writes inside the chroot: into a folder of its /tmp,
        # moved out afterwards.
        inside = tempfile.mkdtemp(prefix="utf8env-localedef-", dir=os.path.join(root, "tmp"))
        os.chmod(inside, 0o755)
        where = os.path.join(inside, loc.folder)
        target = "/" + os.path.relpath(where, os.path.realpath(root))
        cmd = _chroot_prefix(root) + ["/usr/bin/localedef"]
    # -c: write the locale even when localedef only warns; its status is unreliable
    # (non-zero after mere warnings), so success means "the folder has an LC_CTYPE".
    cmd += ["-c", "-i", loc.input, "-f", loc.charmap, target]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env=environ)
        if not os.path.isfile(os.path.join(where, "LC_CTYPE")):
            said = proc.stdout.decode("utf-8", "replace").strip().splitlines()
            raise WorldError("world {!r} cannot be made here: {} made no locale (exit {}){}".format(
                world_name, " ".join(cmd), proc.returncode, ": " + said[-1] if said else ""))
        if where != out:
            shutil.move(where, out)
    except OSError as error:
        raise WorldError("world {!r} cannot be made here: {}: {}".format(
            world_name, " ".join(cmd), error.strerror or error)) from None
    finally:
        if inside:
            shutil.rmtree(inside, ignore_errors=True)


def _chroot_prefix(root):
    """The command that enters the chroot `root`: chroot(8) as root, else inside an
    unprivileged user namespace (where the user is root and may chroot)."""
    if os.geteuid() == 0:
        return ["chroot", root]
    return ["unshare", "--user", "--map-root-user", "chroot", root]
