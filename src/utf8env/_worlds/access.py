"""How each world is entered here, the least privileged way that is true to it:

    installed    nothing to do
    adds         LOCPATH=FOLDER (the world's locales, compiled by localedef into the user's
                 cache): glibc looks there before /usr/lib/locale, no privilege needed
    hides        a mount namespace with the world's folder bind-mounted over
                 /usr/lib/locale: an unprivileged user namespace (unshare --user
                 --map-root-user --mount), or root's own mount namespace where user
                 namespaces are not allowed

A chroot's interpreter cannot see the host's LOCPATH folder: a world applied to a chroot
is always mounted over ROOT/usr/lib/locale, in a mount namespace as above.
Where a world cannot be entered, `Way.problem` says why and what would make it possible.
"""
import os
import shutil
import subprocess

from .catalog import world as _world
from .._engine.records import Record, field

NONE, LOCPATH, USERNS, MOUNT = "installed", "LOCPATH", "user namespace", "mount namespace"
# `via` values: None, the least privileged way; MOUNT, root's mount namespace for every
# world with locales of its own (the reference the other ways are compared with).
VIAS = (None, MOUNT)


class Way(Record):
    world = field()
    method = field()          # NONE, LOCPATH, USERNS or MOUNT; None when it cannot be made
    problem = field(None)     # why it cannot be made here, and what would make it possible


_PROBED = {}


def _probe(key, argv):
    """None when `argv` succeeds, else its message (asked once per process)."""
    if key not in _PROBED:
        try:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=60)
            said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            _PROBED[key] = None if proc.returncode == 0 else (
                said[-1] if said else "exit %d" % proc.returncode)
        except (OSError, subprocess.SubprocessError) as error:
            _PROBED[key] = str(error)
    return _PROBED[key]


def _read(proc, name):
    try:
        with open(os.path.join(proc, name), encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


def userns_problem(proc="/proc"):
    """None where this user may make a user namespace with a mount namespace in it;
    else (why not, what would make it possible)."""
    allow = "allowing unprivileged user namespaces"
    if not shutil.which("unshare") or not shutil.which("mount"):
        return "unshare or mount is not installed", "installing util-linux"
    if _read(proc, "sys/user/max_user_namespaces") == "0":
        return ("user namespaces are off (user.max_user_namespaces = 0)",
                "sysctl -w user.max_user_namespaces=10000")
    if os.geteuid() != 0 and _read(proc, "sys/kernel/unprivileged_userns_clone") == "0":
        return ("unprivileged user namespaces are off (kernel.unprivileged_userns_clone = 0)",
                "sysctl -w kernel.unprivileged_userns_clone=1")
    failed = _probe("userns", ["unshare", "--user", "--map-root-user", "--mount", "true"])
    if failed is None:
        return None
    if os.geteuid() != 0 and _read(proc, "sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return ("AppArmor restricts unprivileged user namespaces (unshare --user: %s)" % failed,
                "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor "
                "profile that gives unshare userns")
    return "unshare --user failed (%s)" % failed, allow


def can_map_user():
    """Whether this unshare can map the user back to themselves in a nested user
    namespace (--map-user, --map-group: not every util-linux has them). Without them
    the jobs of a user-namespace world run as that namespace's root (uid 0 there)."""
    if "map_user" not in _PROBED:
        try:
            out = subprocess.run(["unshare", "--help"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            out = b""
        _PROBED["map_user"] = b"--map-user" in out and b"--map-group" in out
    return _PROBED["map_user"]


def mount_problem():
    """None where root's own mount namespace can be made; else (why not, what would make it possible)."""
    if os.geteuid() != 0:
        return "this is not root", "running as root"
    if not shutil.which("unshare") or not shutil.which("mount"):
        return "unshare or mount is not installed", "installing util-linux"
    failed = _probe("mount", ["unshare", "--mount", "--propagation", "private", "true"])
    if failed is None:
        return None
    return ("unshare --mount failed (%s)" % failed,
            "CAP_SYS_ADMIN (for a container: started with it)")


def way(name, roots=("/",), via=None, proc="/proc"):
    """The Way world `name` is entered here for interpreters in `roots`."""
    w = _world(name)
    if w.folders is None:
        return Way(name, NONE)
    chroot = any(os.path.realpath(r) != "/" for r in roots)
    if via == MOUNT:
        problem = mount_problem()
        if problem is None:
            return Way(name, MOUNT)
        return Way(name, None, "world %r cannot be made in root's mount namespace: %s; %s "
                               "would make it possible" % ((name,) + problem))
    if not w.hides and not chroot:
        return Way(name, LOCPATH)
    userns = userns_problem(proc)
    if userns is None:
        return Way(name, USERNS)
    mount = mount_problem()
    if mount is None:
        return Way(name, MOUNT)
    what = ("hiding the installed locales" if w.hides else
            "a chroot's interpreter (it cannot see LOCPATH's folder)")
    return Way(name, None, "world %r cannot be made here: %s takes a mount namespace, and %s "
                           "and %s; %s or %s would make it possible" % (
                               name, what, userns[0], mount[0], userns[1], mount[1]))
