"""Files of one user, found and written without crossing to another owner: what
`doctor --fix` writes through (_repair.py). The rules are systemd's chase() with
CHASE_SAFE and sudoedit's, made stricter where a start-up file is concerned:

- every component of the path is looked at with lstat (through a folder's descriptor,
  opened with O_NOFOLLOW, so what was checked is what is used: no component can be
  swapped between the check and the write);
- a folder or a link is owned by root or by the user; below a folder of the user's,
  only the user's (root may hand a path to the user, as / and /home do; the user's
  folders never hand it back to root or to someone else: that is systemd's "unsafe
  transition"); a folder any user may write without the sticky bit is refused;
- a link is followed only where the rules above hold for the link itself and for every
  folder its target goes through, so a dotfiles checkout (~/.bashrc -> ~/dotfiles/bashrc,
  all the user's) is changed where it points, and a link into a file or folder of root's
  or of another user's is not: the user can make a link to anything, so following it as
  root would let them have root write any file;
- the file itself is a regular file of the user's with one link (a second hard link
  would keep the old text, or be someone else's name for it), opened O_NOFOLLOW and
  O_NONBLOCK (a FIFO in its place answers at once, and is refused);
- the folder the file is in is the user's: the new copy and the backup are made there.

Every refusal is a UsageError of one line naming the component and the rule.
"""
import os
import stat

from .._errors import UsageError
from .._output import shown

_LINKS_MAX = 40         # SYMLOOP_MAX on Linux: a loop ends here
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Owned(object):
    """A file's place, checked: `fd` the folder it is in (open), `name` its name there,
    `stat` its lstat (None: it does not exist yet), `path` the physical path, `missing`
    the folders still to create between `fd` and the file."""

    def __init__(self, fd, name, st, path, missing):
        self.fd, self.name, self.stat, self.path, self.missing = fd, name, st, path, missing

    def close(self):
        os.close(self.fd)


def _refuse(message):
    raise UsageError("--fix: %s; nothing was changed" % message)


def _kind(mode):
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a link")):
        if test(mode):
            return name
    return "not a regular file"


def _not_theirs(what, via, owner, uid):
    _refuse("%s%s belongs to uid %d, not to uid %d, whom the fix is for" % (
        what, via, owner, uid))


def _check_step(parent, st, path, uid, via):
    """A folder or link at `path` (lstat `st`) under a folder owned by `parent`."""
    if st.st_uid not in (0, uid) or (parent == uid and st.st_uid != uid):
        _not_theirs("the %s %s" % ("folder" if stat.S_ISDIR(st.st_mode) else "link",
                                   shown(path)), via, st.st_uid, uid)
    if stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_IWOTH and \
            not st.st_mode & stat.S_ISVTX:
        _refuse("the folder %s%s can be written by every user (no sticky bit): what is in "
                "it could be replaced" % (shown(path), via))


def find(path, uid):
    """The Owned place of `path` (absolute) for user `uid`, every component checked;
    raises UsageError (one line) where a rule does not hold or a folder cannot be read."""
    try:
        return _find(path, uid)
    except OSError as error:
        _refuse("%s: cannot look at it (%s%s)" % (
            shown(path), error.strerror or error,
            ": %s" % shown(error.filename) if error.filename else ""))


def _find(path, uid):
    parts = [p for p in path.split("/") if p]
    fd = os.open("/", _DIRECTORY)
    st = os.fstat(fd)
    stack = [(fd, st, "")]
    links = 0
    via = ""
    try:
        _check_step(0, st, "/", uid, via)
        while parts:
            name = parts.pop(0)
            fd, folder, where = stack[-1]
            if name == ".":
                continue
            if name == "..":
                if len(stack) > 1:
                    os.close(stack.pop()[0])
                continue
            here = where + "/" + name
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                if ".." in parts:
                    _refuse("%s does not exist, and a path through it goes back up (..)"
                            % shown(here))
                if folder.st_uid != uid:
                    _not_theirs("the folder %s" % shown(where or "/"), via, folder.st_uid, uid)
                missing = [name] + [p for p in parts if p != "."]
                result = Owned(fd, missing[-1], None, "/".join([where] + missing),
                               missing[:-1])
                stack.pop()
                return result
            except NotADirectoryError:
                _refuse("%s is not a folder" % shown(where))
            if stat.S_ISLNK(st.st_mode):
                _check_step(folder.st_uid, st, here, uid, via)
                links += 1
                if links > _LINKS_MAX:
                    _refuse("%s: more than %d links on the way" % (shown(path), _LINKS_MAX))
                target = os.readlink(name, dir_fd=fd)
                via = " (where %s points)" % shown(path)
                if target.startswith("/"):
                    while len(stack) > 1:
                        os.close(stack.pop()[0])
                parts = [p for p in target.split("/") if p] + parts
                continue
            if not parts:
                if folder.st_uid != uid:
                    _not_theirs("the folder %s" % shown(where or "/"), via, folder.st_uid, uid)
                result = Owned(fd, name, st, here, [])
                stack.pop()
                return result
            if not stat.S_ISDIR(st.st_mode):
                _refuse("%s%s is %s, not a folder" % (shown(here), via, _kind(st.st_mode)))
            _check_step(folder.st_uid, st, here, uid, via)
            child = os.open(name, _DIRECTORY, dir_fd=fd)
            opened = os.fstat(child)
            stack.append((child, opened, here))
            if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
                _refuse("%s changed while it was looked at" % shown(here))
        _refuse("%s is a folder" % shown(path))
    finally:
        for each in stack:
            os.close(each[0])


def read(place, uid, shown_path):
    """The bytes of the existing file at `place` (None where there is none yet), opened
    without following a link and checked again on the descriptor."""
    if place.stat is None:
        return None
    st = place.stat
    if place.path != shown_path:
        shown_path = "%s (where %s points)" % (place.path, shown_path)
    if not stat.S_ISREG(st.st_mode):
        _refuse("%s is %s, not a regular file" % (shown(shown_path), _kind(st.st_mode)))
    try:
        fd = os.open(place.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                     dir_fd=place.fd)
    except OSError as error:
        raise UsageError("--fix: %s: cannot read it (%s)" % (shown(shown_path),
                                                               error.strerror or error))
    with os.fdopen(fd, "rb") as f:
        opened = os.fstat(f.fileno())
        if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino) or \
                not stat.S_ISREG(opened.st_mode):
            _refuse("%s changed while it was looked at" % shown(shown_path))
        if opened.st_uid != uid:
            _not_theirs(shown(shown_path), "", opened.st_uid, uid)
        if opened.st_nlink != 1:
            _refuse("%s has %d hard links: a new copy renamed over it would leave the other "
                    "names with the old text" % (shown(shown_path), opened.st_nlink))
        return f.read()


def exists(place, name):
    try:
        os.stat(name, dir_fd=place.fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def make_folders(place):
    """Create `place.missing` (mode 0777 less the umask, as mkdir -p), each opened again
    without following a link; `place.fd` is then the file's own folder."""
    for name in place.missing:
        try:
            os.mkdir(name, 0o777, dir_fd=place.fd)
        except FileExistsError:
            pass
        child = os.open(name, _DIRECTORY, dir_fd=place.fd)
        os.close(place.fd)
        place.fd = child
    place.missing = []


def write(place, name, content, mode):
    """`content` into `name` in the place's folder: a new file (O_EXCL, O_NOFOLLOW) made,
    written, synced, then renamed over `name`."""
    temporary = ".%s.utf8env-new" % name
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 mode, dir_fd=place.fd)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, name, src_dir_fd=place.fd, dst_dir_fd=place.fd)
    except BaseException:
        os.unlink(temporary, dir_fd=place.fd)
        raise


def as_user(uid, gid, work):
    """work() in a child that is `uid`:`gid` alone (no supplementary groups, real, effective
    and saved ids all changed: it cannot get root back), for root writing another user's
    files; the child's return value (JSON-able) or its UsageError, here."""
    import json
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            os.close(reading)
            try:
                os.setgroups([])
                os.setresgid(gid, gid, gid)
                os.setresuid(uid, uid, uid)
                answer = {"value": work()}
            except UsageError as error:
                answer, status = {"error": str(error)}, 1
            except BaseException as error:       # one line, never a traceback
                answer, status = {"error": "--fix: as uid %d: %s" % (uid, error)}, 1
            os.write(writing, json.dumps(answer).encode("ascii"))
        finally:
            os._exit(status)
    os.close(writing)
    chunks = []
    with os.fdopen(reading, "rb") as f:
        chunks.append(f.read())
    os.waitpid(pid, 0)
    try:
        answer = json.loads(b"".join(chunks).decode("ascii"))
    except ValueError:
        raise UsageError("--fix: the process writing as uid %d ended without an answer; "
                         "nothing more was changed" % uid)
    if "error" in answer:
        raise UsageError(answer["error"])
    return answer["value"]
