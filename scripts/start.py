# How the `utf8env` command starts Python: the code that bin/utf8env (the compiled
# launcher, scripts/launcher.c, or the shell stub, scripts/utf8env.sh) gives the
# interpreter pip wrote on the companion's first line, as `-I -S -c` (a script would be
# compiled at every start too, and is longer to find). The build writes it into both; it
# must hold no single quote (the stub quotes it so). It is compiled at every start: the
# rest of the start is src/_utf8env_start.py, whose bytecode pip compiled at install.
#
# Its arguments, before the command line's own: the companion's path, the mask of the
# signals ignored on entry (decimal, as /proc/self/stat writes it; empty: not known) and
# the names of the variables kept aside (each moved to UTF8ENV_HIDDEN_NAME). No os:
# utf8env/environment.py says why.
import sys
lib = "%s/../lib/python%d.%d/" % ((sys.argv[1].rpartition("/")[0],) + sys.version_info[:2])
sys.path[:0] = [lib + "site-packages", lib + "dist-packages"]
try:
    from _utf8env_start import start
except ImportError:
    # Not installed in this folder's scheme (an editable install, PYTHONPATH, a copied bin
    # folder): the usual start, the companion with site, the variables kept aside back.
    # A string, compiled only here: this code is compiled at every start, and the block
    # would double what that costs.
    exec("""
import posix
companion, hidden = sys.argv[1], sys.argv[3]
del sys.argv[1:4]
env = dict(posix.environ)
for name in hidden.split():
    value = env.pop(b"UTF8ENV_HIDDEN_" + name.encode(), None)
    if value is not None:
        env[name.encode()] = value
posix.execve(sys.executable, [sys.executable, companion] + sys.argv[1:], env)
""")
start()
