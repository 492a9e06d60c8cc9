"""`utf8env doctor --fix [--dry-run]`: apply the fixes that are the user's own to make
(a shell start-up file under $HOME, the user's crontab), each after a backup; _cli.py
then has new sessions started and asked (_session.py).

For each problem, the first option whose every step is the user's to make is applied;
a problem with none (it needs root, the ssh client, the image) is said with its first
fix, untouched. A file is changed by writing a new copy beside it and renaming it over
the old one (a full disk leaves the old one whole). A line already in the file is not
written twice. Files are written for HOME's owner alone, through _owned.py's checks (no
link into a file or folder of another owner's, no hard link, no FIFO); a symlinked
start-up file that is the user's all the way (a dotfiles checkout) is changed where it
points; root with another user's HOME writes as that user, in a child with that user's
ids alone.
"""
import os

from .._errors import UsageError
from .._output import shown
from . import _owned as owned
from ._fixes import applied
from ._owned import as_user, exists

MARK = "# utf8env doctor --fix:"


class Applied(object):
    """What --fix did (or, with --dry-run, would do) to one file: `file` (None: the
    crontab), `position` ("top", "end", "above the first job"), the lines, the backup."""

    def __init__(self, file, position, lines, backup):
        self.file, self.position, self.lines, self.backup = file, position, lines, backup

    @property
    def target(self):
        if self.file is None:
            return "the crontab (above its first job)"
        return "%s (%s)" % (self.file, "at its top" if self.position == "top" else "at its end")

    def to_object(self):
        return {"file": self.file, "position": self.position, "lines": list(self.lines),
                "backup": self.backup}


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
    env = dict(environ)
    for _, steps in findings_plan:
        env = applied(env, steps[0].changes if steps else ())
    return env


def apply(findings_plan, environ, dry_run):
    """[Applied] for every file the plan changes; raises UsageError (one line, the file
    untouched) when one cannot be written. Everything is written for the owner of HOME
    (_owned.py's rules); root with another user's HOME writes as that user, in a child
    that has only that user's ids."""
    grouped = []
    for _, steps in findings_plan:
        for step in steps or ():
            for target, lines in grouped:
                if target == step.target:
                    lines.extend(l for l in step.lines if l not in lines)
                    break
            else:
                grouped.append((step.target, list(step.lines)))
    if not grouped:
        return []
    uid, gid = user(environ)

    def work():
        done = []
        for target, lines in grouped:
            if target[0] == "crontab":
                done.append(_crontab(lines, environ, dry_run, uid))
            else:
                done += [_start_up_file(each, lines, environ, dry_run, uid)
                         for each in _with_zdotdir(target, environ)]
        return [None if d is None else [d.file, d.position, d.lines, d.backup] for d in done]

    if os.geteuid() == 0 and uid != 0:
        answers = as_user(uid, gid, work)
    else:
        answers = work()
    return [Applied(*answer) for answer in answers if answer is not None]


def user(environ):
    """(uid, gid) of the user the fix is for: HOME's owner. Another user than this one is
    refused, except for root, which writes as that user."""
    home = _home(environ)
    try:
        st = os.stat(home)
    except OSError as error:
        raise UsageError("--fix: HOME=%s: %s; no start-up file to change" % (
            shown(home), error.strerror or error))
    if os.geteuid() not in (0, st.st_uid):
        raise UsageError("--fix: HOME=%s belongs to uid %d, not to this user (uid %d): run "
                         "doctor --fix as its owner; nothing was changed"
                         % (shown(home), st.st_uid, os.geteuid()))
    return st.st_uid, st.st_gid


def session_user(environ):
    """(uid, gid) to start a new session as: HOME's owner where root runs doctor with
    another user's HOME (that user's start-up files are never run by root), else None."""
    if os.geteuid() != 0:
        return None
    try:
        st = os.stat(_home(environ))
    except (OSError, UsageError):
        return None
    return None if st.st_uid == 0 else (st.st_uid, st.st_gid)


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


def _start_up_file(target, lines, environ, dry_run, uid):
    where, name = target
    path = name if name.startswith("/") else os.path.join(_home(environ), name[2:])
    place = owned.find(path, uid)
    try:
        old = owned.read(place, uid, path)
        present = set((old or b"").decode("utf-8", "surrogateescape").splitlines())
        new_lines = [line for line in lines if line not in present]
        if not new_lines:
            return None
        block = ("\n".join([MARK + " a UTF-8 locale for every program"] + new_lines)
                 + "\n").encode("utf-8", "surrogateescape")
        if old is None:
            content = block
        elif where == "top":
            content = block + old
        else:
            content = old + (b"" if old.endswith(b"\n") or not old else b"\n") + block
        folder = os.path.dirname(place.path)
        backup = None if old is None else _backup_name(place)
        if not dry_run:
            mode = 0o644 if old is None else place.stat.st_mode & 0o7777
            try:
                owned.make_folders(place)
                if old is not None:
                    owned.write(place, backup, old, mode)
                owned.write(place, place.name, content, mode)
            except OSError as error:
                raise UsageError("--fix: %s: cannot write it (%s); nothing of it was changed"
                                 % (shown(path), error.strerror or error))
    finally:
        place.close()
    return Applied(path, where, new_lines,
                   None if backup is None else os.path.join(folder, backup))


def _backup_name(place):
    """The first free name of NAME.utf8env-backup, NAME.utf8env-backup.2, ... beside it."""
    candidate = place.name + ".utf8env-backup"
    number = 1
    while exists(place, candidate):
        number += 1
        candidate = "%s.utf8env-backup.%d" % (place.name, number)
    return candidate


def _crontab(lines, environ, dry_run, uid):
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
    backup = None
    if old:
        place = owned.find(os.path.join(folder, "crontab"), uid)
        try:
            name = _backup_name(place)
            backup = os.path.join(os.path.dirname(place.path), name)
            if not dry_run:
                try:
                    owned.make_folders(place)
                    owned.write(place, name, old, 0o600)
                except OSError as error:
                    raise UsageError("--fix: %s: cannot write it (%s); nothing was changed"
                                     % (shown(backup), error.strerror or error))
        finally:
            place.close()
    if not dry_run:
        installed = subprocess.run(["crontab", "-"], input=new, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        if installed.returncode != 0:
            raise UsageError("--fix: crontab - refused the new crontab (%s); the old one is "
                             "unchanged" % installed.stderr.decode("utf-8", "replace").strip())
    return Applied(None, "above the first job", new_lines, backup)


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
