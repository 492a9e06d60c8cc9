# How the `utf8env` command starts Python: the code that bin/utf8env (the compiled
# launcher, scripts/launcher.c, or the shell stub, scripts/utf8env.sh) gives the
# interpreter of its installation, as `-I -S -c`. The build writes it into both; it must
# hold no single quote (the stub quotes it so).
#
# Its arguments, before utf8env's own: the command's own path (its real file), the folder
# DIR/../lib/pythonX.Y where the command found this version of utf8env installed, the
# plan's file descriptor (empty: Python execs the command itself), the mask of the signals
# ignored on entry (decimal, as /proc/self/stat writes it; empty: not known), the command
# line of an earlier start whose warnings were printed (empty: none), the number N of
# variables kept aside and N entries NAME=value, the number M of names the starter asked
# libc's setlocale about and M pairs NAME CODESET (utf8env/_cli.py start() reads them all).
#
# The package is in that folder's site-packages, or dist-packages for Debian's
# /usr/local; for an editable install, where a .pth file there says.
import posix, sys
# -I keeps the interpreter from reading it; the user's word about their site-packages
# all the same, before the first import.
sys.dont_write_bytecode = bool(posix.environ.get(b"PYTHONDONTWRITEBYTECODE"))
lib = sys.argv[2]
# An interpreter of another version (a venv's python3 after an upgrade of its base) would
# import a copy built for another: it says so instead.
if lib.rpartition("/")[2] != "python%d.%d" % sys.version_info[:2]:
    sys.stderr.write("utf8env: error: %s is Python %d.%d, but utf8env is installed in %s "
                     "(reinstall utf8env)\n" % ((sys.executable,) + sys.version_info[:2] + (lib,)))
    sys.exit(125)
sys.path[:0] = [lib + "/site-packages", lib + "/dist-packages"]
try:
    from utf8env._cli import start
except ImportError:
    # The .pth files of those two folders alone (an editable install's): site.main() under
    # -I would skip a --user install's folder.
    import site
    site.addsitedir(sys.path[0])
    site.addsitedir(sys.path[1])
    try:
        from utf8env._cli import start
    except ImportError as error:
        sys.stderr.write("utf8env: error: %s: %s (reinstall utf8env)\n" % (lib, error))
        sys.exit(125)
start()
