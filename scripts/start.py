# How the `utf8env` command starts Python: the code that bin/utf8env (the compiled
# launcher, scripts/launcher.c, or the shell stub, scripts/utf8env.sh) gives the
# interpreter pip wrote on the companion's first line, as `-I -S -c` (a script would be
# compiled at every start too, and is longer to find). The build writes it into both; it
# must hold no single quote (the stub quotes it so).
#
# Its arguments, before the command line's own: the companion's path, the mask of the
# signals ignored on entry (decimal, as /proc/self/stat writes it; empty: not known) and
# the names of the variables kept aside (each moved to UTF8ENV_HIDDEN_NAME).
# `run` replaces itself with the command within milliseconds: collecting garbage before
# that is wasted work. No os: utf8env/environment.py says why.
import sys
companion = sys.argv.pop(1)
ignored = sys.argv.pop(1)
hidden = sys.argv.pop(1)
if sys.argv[1:2] == ["run"]: import gc; gc.disable()
lib = "%s/../lib/python%d.%d/" % ((companion.rpartition("/")[0],) + sys.version_info[:2])
sys.path[:0] = [lib + "site-packages", lib + "dist-packages"]
try:
    from utf8env.cli import main
except ImportError:
    # Not installed in this folder's scheme (an editable install, PYTHONPATH, a copied bin
    # folder): the usual start, the companion with site, the variables kept aside back.
    import posix
    env = dict(posix.environ)
    for name in hidden.split():
        value = env.pop(b"UTF8ENV_HIDDEN_" + name.encode(), None)
        if value is not None:
            env[name.encode()] = value
    posix.execve(sys.executable, [sys.executable, companion] + sys.argv[1:], env)
from utf8env import environment
environment.ignored_at_start = ignored
environment.kept_aside = hidden.split()
sys.exit(main())
