"""The ground-truth probe: run as `python [OPTIONS] -c SOURCE` (utf8env._probe.command),
inside any interpreter (2.7, 3.6+), it reports the interpreter's live text configuration
as one line of ASCII JSON on file descriptor 1.

Its source travels on the command line, so it needs no file inside a chroot and sees the
interpreter exactly as the options configured it. It writes to the file descriptor, not
through sys.stdout, so a stdout codec cannot garble the report, and it never writes to
stderr: stderr holds only what the interpreter printed itself. ASCII only: 3.6 decodes
its command line with the locale's codec.
"""
import sys, os, json, locale, warnings


def stream(f):
    return [getattr(f, "encoding", None), getattr(f, "errors", None)] if f else None


with warnings.catch_warnings():
    # EncodingWarning (PYTHONWARNDEFAULTENCODING) must not reach stderr.
    warnings.simplefilter("ignore")
    f = open(os.devnull)     # utf8env: ignore (the default is what is observed)
    opened = [f.encoding, f.errors]
    f.close()
    preferred = locale.getpreferredencoding(False)
    getencoding = getattr(locale, "getencoding", None)
report = {
    "version": "%d.%d" % sys.version_info[:2],
    "utf8_mode": getattr(sys.flags, "utf8_mode", 0),
    "filesystem": [sys.getfilesystemencoding(), getattr(sys, "getfilesystemencodeerrors", lambda: None)()],
    "stdin": stream(sys.stdin), "stdout": stream(sys.stdout), "stderr": stream(sys.stderr),
    "open": opened,
    "preferred_encoding": preferred,
    "locale_encoding": getencoding() if getencoding else None,
    "lc_ctype": locale.setlocale(locale.LC_CTYPE, None),
    "environ": dict((k.decode("latin-1"), v.decode("latin-1"))
                    for k, v in getattr(os, "environb", {}).items()),
}
os.write(1, (json.dumps(report, sort_keys=True) + "\n").encode("ascii"))
