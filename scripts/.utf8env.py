#!python
# utf8env's entry point. bin/utf8env runs it with -I -S (see there); run directly, it is
# an ordinary console script.
#
# Without site the package is not on sys.path. It is where the installer put it, in the
# scheme of the folder this file was installed in: for every POSIX scheme (a venv,
# --user, a prefix) that is ../lib/pythonX.Y/site-packages, dist-packages for Debian's
# /usr/local. Anywhere else (an editable install, PYTHONPATH) this starts again the
# usual way, with site. Kept this small because a script, unlike a module, is compiled
# at every start; and without os (utf8env/environment.py says why).
import sys

if sys.flags.no_site:
    lib = "%s/../lib/python%d.%d/" % ((__file__.rpartition("/")[0] or ".",) + sys.version_info[:2])
    for packages in (lib + "site-packages", lib + "dist-packages", None):
        if packages is None:
            import os
            os.execv(sys.executable, [sys.executable, __file__] + sys.argv[1:])
        sys.path.insert(0, packages)
        try:
            from utf8env.cli import main
            break
        except ImportError:
            del sys.path[0]
else:
    from utf8env.cli import main
sys.exit(main())
