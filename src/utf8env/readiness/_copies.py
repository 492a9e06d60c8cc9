"""The copies of a project that readiness runs its suite in (and fix --prove its fixes):
links copied as links, what is never the project's left out (version control, caches,
virtual environments), and the special files (FIFOs, sockets, devices) left out and
listed, which cannot be copied; the copies made, and removed, side by side in threads; a
rerun's .pytest_cache restored as the project's."""
import os
import re
import shutil
import stat
import sys
from concurrent.futures import ThreadPoolExecutor

from .._errors import UsageError

_NOT_COPIED = (".git", ".hg", ".svn", "__pycache__", ".tox", ".nox", ".venv",
               "venv", ".mypy_cache", ".ruff_cache", "*.egg-info", "node_modules")

_SPECIAL = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "device"),
            (stat.S_ISBLK, "device"))


def special_kind(path):
    """"FIFO", "socket" or "device" for such a file (not followed when a link), else None."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    for test, kind in _SPECIAL:
        if test(mode):
            return kind
    return None


def _ignore(project, skipped):
    """copytree's `ignore`: what is never copied, and the special files (which cannot
    be: reading a FIFO waits for a writer, a socket cannot be opened, a device is not
    the project's), each added to `skipped` (relative to the project) the first time."""
    patterns = shutil.ignore_patterns(*_NOT_COPIED)

    def ignore(folder, names):
        out = set(patterns(folder, names))
        for name in names:
            if name in out:
                continue
            path = os.path.join(folder, name)
            kind = special_kind(path)
            if kind:
                out.add(name)
                where = os.path.relpath(path, project)
                if where not in [w for w, _ in skipped]:
                    skipped.append((where, kind))
        return out
    return ignore


def _copy_without_copyfile2(source, target):
    """shutil.copy2 as it was before 3.12 on Windows: the bytes, then the metadata. 3.12+
    copies with the Win32 API's CopyFile2, which Wine 8.0 lacks (the process aborts), and
    readiness on Windows itself is tested under Wine."""
    shutil.copyfile(source, target, follow_symlinks=False)
    shutil.copystat(source, target, follow_symlinks=False)
    return target


# copytree's copy_function: shutil's own, but on Windows.
COPY = _copy_without_copyfile2 if sys.platform == "win32" else shutil.copy2


class _Failed(Exception):
    """A file that could not be copied, with its OSError: not an OSError itself, so that
    copytree stops at it rather than going on (on a full disk, with every file after)."""

    def __init__(self, source, error):
        Exception.__init__(self, source, error)
        self.source, self.error = source, error


def copy_project(project, work, skipped=None):
    """Copy the project into `work` (links as links); the special files it holds are
    left out and listed in `skipped` [(path, kind)]. A copy that fails (a full disk, a
    file the user cannot read) is a UsageError in one line: which file, why, where."""
    skipped = [] if skipped is None else skipped

    def copy(source, target):
        try:
            return COPY(source, target)
        except OSError as error:
            raise _Failed(source, error)
    try:
        shutil.copytree(project, work, symlinks=True, ignore=_ignore(project, skipped),
                        copy_function=copy)
    except _Failed as failed:
        raise _cannot_copy(project, work, failed.source, failed.error.strerror or failed.error)
    except shutil.Error as error:       # a folder's metadata or a link: collected by copytree
        source, _, why = error.args[0][0]
        raise _cannot_copy(project, work, source, _reason(why))
    except OSError as error:            # a folder that could not be made or listed
        raise _cannot_copy(project, work, error.filename or work, error.strerror or error)
    return skipped


# str() of an OSError, which is all copytree keeps of one: "[Errno 28] No space left on
# device: '/tmp/.../copy/link'".
_OS_ERROR = re.compile(r"\[Errno -?\d+\] (.+?)(?:: '.*)?$", re.S)


def _reason(why):
    """The reason alone of copytree's str() of an OSError (the file is named already),
    else `why` as it is."""
    matched = _OS_ERROR.match(why)
    return matched.group(1) if matched else why


def _cannot_copy(project, work, source, why):
    where = os.path.relpath(source, project) if source.startswith(project + os.sep) else source
    return UsageError("cannot copy the project for the runs into the temporary folder %s: "
                      "%s: %s" % (os.path.dirname(os.path.dirname(work)), where, why))


def copy_projects(pairs, skipped=None):
    """copy_project() of each (project, work) of `pairs`, side by side in threads (a
    copy's time is the file system's, opening and writing files, which threads share
    out: two copies of a project of 1,200 files took 1.8 s one after the other); the
    special files left out listed once in `skipped`. Returns when every copy ended,
    raising the first one's error."""
    skipped = [] if skipped is None else skipped
    found = [[] for _ in pairs]
    with ThreadPoolExecutor(max(1, min(len(pairs), 2 * (os.cpu_count() or 1)))) as pool:
        copies = [pool.submit(copy_project, project, work, own)
                  for (project, work), own in zip(pairs, found)]
        for copy in copies:
            copy.result()
    for entry in (entry for own in found for entry in own):
        if entry not in skipped:
            skipped.append(entry)
    return skipped


def remove_all(folders):
    """Remove each of `folders` (their remove()), side by side in threads, as
    copy_projects() makes them: unlinking a copy's files one by one is the file system's
    time, which threads share out. Returns when every one is gone, Ctrl-C or not."""
    folders = list(folders)
    with ThreadPoolExecutor(max(1, min(len(folders), 2 * (os.cpu_count() or 1)))) as pool:
        for done in [pool.submit(folder.remove) for folder in folders]:
            done.result()


def restore_cache(project, work):
    """The copy's .pytest_cache as the project's (the first run changed it), for a rerun
    that uses it as the first run did (--lf, --ff, --sw)."""
    cache = os.path.join(work, ".pytest_cache")
    shutil.rmtree(cache, ignore_errors=True)
    original = os.path.join(project, ".pytest_cache")
    if os.path.isdir(original) and not os.path.islink(original):
        try:
            shutil.copytree(original, cache, symlinks=True, ignore=_ignore(original, []),
                            copy_function=COPY)
        except (OSError, shutil.Error):
            pass
