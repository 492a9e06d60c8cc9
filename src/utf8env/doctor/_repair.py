"""`utf8env doctor --fix [--dry-run]`: apply the fixes that are the user's own to make
(a shell start-up file under $HOME, the user's crontab), each after a backup, then
diagnose again with the variables a new session will have, and say both verdicts.

For each problem, the first option whose every step is the user's to make is applied;
a problem with none (it needs root, the ssh client, the image) is said with its first
fix, untouched. A file is changed by writing a new copy beside it and renaming it over
the old one (a full disk leaves the old one whole); a symlinked start-up file (a dotfiles
checkout) is changed where it points. A line already in the file is not written twice.
"""
import os

from .._errors import UsageError

MARK = "# utf8env doctor --fix:"


class Applied(object):
    """What --fix did (or, with --dry-run, would do) to one file."""

    def __init__(self, target, lines, backup):
        self.target, self.lines, self.backup = target, lines, backup


def plan(findings):
    """[(finding, [Fix, ...] to apply, or None: nothing the user can apply)] per problem."""
    out = []
    for finding in findings:
        if finding.severity == "note":
            continue
        options = {}
        for fix in finding.fixes:
            options.setdefault(fix.option, []).append(fix)
        usable = [steps for _, steps in sorted(options.items())
                  if all(step.target is not None for step in steps)]
        out.append((finding, usable[0] if usable else None))
    return out


def changed_environ(environ, findings_plan):
    """The environment a new session gets once the planned fixes are in place."""
    from ._fixes import applied
    env = dict(environ)
    for _, steps in findings_plan:
        env = applied(env, steps[0].changes if steps else ())
    return env


def apply(findings_plan, environ, dry_run):
    """[Applied] for every file the plan changes; raises UsageError (one line, the file
    untouched) when one cannot be written."""
    grouped = []
    for _, steps in findings_plan:
        for step in steps or ():
            for target, lines in grouped:
                if target == step.target:
                    lines.extend(l for l in step.lines if l not in lines)
                    break
            else:
                grouped.append((step.target, list(step.lines)))
    done = []
    for target, lines in grouped:
        if target[0] == "crontab":
            done.append(_crontab(lines, environ, dry_run))
        else:
            done += [_start_up_file(each, lines, environ, dry_run)
                     for each in _with_zdotdir(target, environ)]
    return [d for d in done if d is not None]


def _with_zdotdir(target, environ):
    """[target], and $ZDOTDIR/.zshenv after ~/.zshenv where ZDOTDIR is set: zsh started
    with ZDOTDIR reads that one instead, and where ~/.zshenv sets ZDOTDIR a new session
    reads only ~/.zshenv (measured: tests/test_doctor_places.py)."""
    zdotdir = environ.get("ZDOTDIR") or ""
    if target[1] != "~/.zshenv" or not zdotdir.startswith("/") or \
            os.path.realpath(zdotdir) == os.path.realpath(_home(environ)):
        return [target]
    return [target, (target[0], os.path.join(zdotdir, ".zshenv"))]


def _home(environ):
    home = environ.get("HOME") or os.path.expanduser("~")
    if not home.startswith("/"):
        raise UsageError("--fix: HOME=%r is not an absolute path: no start-up file to change"
                         % home)
    return home


def _start_up_file(target, lines, environ, dry_run):
    where, name = target
    home = _home(environ)
    path = name if name.startswith("/") else os.path.join(home, name[2:])
    real = os.path.realpath(path)
    _refuse_another_users(path, real, home)
    try:
        with open(real, "rb") as f:
            old = f.read()
    except (FileNotFoundError, NotADirectoryError):
        old = None
    except OSError as error:
        raise UsageError("--fix: %s: cannot read it (%s)" % (path, error.strerror or error))
    present = set((old or b"").decode("utf-8", "surrogateescape").splitlines())
    new_lines = [line for line in lines if line not in present]
    if not new_lines:
        return None
    block = ("\n".join([MARK + " a UTF-8 locale for every program"] + new_lines) + "\n").encode(
        "utf-8", "surrogateescape")
    if old is None:
        content = block
    elif where == "top":
        content = block + old
    else:
        content = old + (b"" if old.endswith(b"\n") or not old else b"\n") + block
    backup = None if old is None else _backup_name(real)
    if not dry_run:
        if old is not None:
            _write(backup, old, real)
        _write(real, content, real)
    return Applied("%s (%s)" % (path, "at its top" if where == "top" else "at its end"),
                   new_lines, backup)


def _refuse_another_users(path, real, home):
    """A file (or, where it does not exist yet, its nearest folder) that is not this
    user's is not written: root running with another user's HOME (sudo without -H) would
    leave that user a start-up file owned by root."""
    probe = real
    while not os.path.lexists(probe) and probe not in ("/", home):
        probe = os.path.dirname(probe)
    try:
        owner = os.stat(probe).st_uid
    except OSError:
        return
    if owner != os.geteuid():
        raise UsageError("--fix: %s belongs to uid %d, not to this user (uid %d): run "
                         "doctor --fix as its owner; nothing was changed"
                         % (path, owner, os.geteuid()))


def _backup_name(path):
    candidate = path + ".utf8env-backup"
    number = 1
    while os.path.lexists(candidate):
        number += 1
        candidate = "%s.utf8env-backup.%d" % (path, number)
    return candidate


def _write(path, content, like):
    """`content` into `path` through a new file renamed over it, with the mode of `like`."""
    folder = os.path.dirname(path) or "."
    temporary = os.path.join(folder, ".%s.utf8env-new" % os.path.basename(path))
    try:
        os.makedirs(folder, exist_ok=True)
        mode = os.stat(like).st_mode & 0o7777 if os.path.exists(like) else 0o644
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as error:
        raise UsageError("--fix: %s: cannot write it (%s); nothing of it was changed"
                         % (path, error.strerror or error))


def _crontab(lines, environ, dry_run):
    """The user's crontab with `lines` at its top (they hold for every job below them),
    read and installed with crontab(1); the old one kept in a backup file."""
    import subprocess
    try:
        listed = subprocess.run(["crontab", "-l"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as error:
        raise UsageError("--fix: crontab: cannot run it (%s)" % (error.strerror or error))
    # crontab -l: status 1 and "no crontab for USER" when there is none.
    if listed.returncode != 0 and b"no crontab" not in listed.stderr:
        raise UsageError("--fix: crontab -l failed: %s" % listed.stderr.decode(
            "utf-8", "replace").strip())
    old = listed.stdout if listed.returncode == 0 else b""
    present = set(old.decode("utf-8", "surrogateescape").splitlines())
    new_lines = [line for line in lines if line not in present]
    if not new_lines:
        return None
    block = ("\n".join([MARK + " a UTF-8 locale for every job below"] + new_lines) + "\n").encode(
        "utf-8", "surrogateescape")
    new = _above_first_job(old, block)
    folder = os.path.join(environ.get("XDG_CACHE_HOME") or os.path.join(_home(environ), ".cache"),
                          "utf8env")
    backup = _backup_name(os.path.join(folder, "crontab")) if old else None
    if not dry_run:
        if backup:
            _write(backup, old, backup)
        installed = subprocess.run(["crontab", "-"], input=new, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        if installed.returncode != 0:
            raise UsageError("--fix: crontab - refused the new crontab (%s); the old one is "
                             "unchanged" % installed.stderr.decode("utf-8", "replace").strip())
    return Applied("the crontab (above its first job)", new_lines, backup)


def _above_first_job(crontab, block):
    """`crontab` with `block` just above its first job line: a crontab's own setting of
    the same name above the job (LC_ALL=C) would win over one at the top, as the later of
    two settings does (cron(8)). Comments, blank lines and settings (crontab(5): "name =
    value") come before."""
    lines = crontab.splitlines(True)
    for index, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith(b"#"):
            continue
        name, sep, _ = text.partition(b"=")
        name = name.strip()
        if sep and name and (name[:1].isalpha() or name[:1] == b"_") \
                and name.replace(b"_", b"").isalnum():
            continue
        return b"".join(lines[:index]) + block + b"".join(lines[index:])
    ending = b"" if not crontab or crontab.endswith(b"\n") else b"\n"
    return crontab + ending + block
