# How the `utf8env` command starts Python: the code that bin/utf8env (the compiled
# launcher, scripts/launcher.c, or the shell stub, scripts/utf8env.sh) gives the
# interpreter pip wrote on the companion's first line, as `-I -S -c`. The build writes it
# into both; it must hold no single quote (the stub quotes it so).
#
# Its arguments, before utf8env's own: the companion's path, the plan's file descriptor
# (empty: Python execs the command itself), the mask of the signals ignored on entry
# (decimal, as /proc/self/stat writes it; empty: not known), the command line of an
# earlier start whose warnings were printed (empty: none), the number N of variables
# kept aside and N entries NAME=value, the number M of names the starter asked libc's
# setlocale about and M pairs NAME CODESET (utf8env/_cli.py start() reads them all).
#
# The package is where the installer put it in the scheme of the companion's folder (a
# venv, pipx, --user, a prefix: ../lib/pythonX.Y/site-packages, or dist-packages for
# Debian's /usr/local); elsewhere (an editable install, a .pth file) site finds it.
import posix, sys
# -I keeps the interpreter from reading it; the user's word about their site-packages
# all the same, before the first import.
sys.dont_write_bytecode = bool(posix.environ.get(b"PYTHONDONTWRITEBYTECODE"))
lib = "%s/../lib/python%d.%d/" % ((sys.argv[1].rpartition("/")[0],) + sys.version_info[:2])
sys.path[:0] = [lib + "site-packages", lib + "dist-packages"]
try:
    from utf8env._cli import start
except ImportError:
    import site
    site.main()
    try:
        from utf8env._cli import start
    except ImportError as error:
        sys.stderr.write("utf8env: error: %s: %s (reinstall utf8env)\n" % (sys.argv[1], error))
        sys.exit(125)
start()
