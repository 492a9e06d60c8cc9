"""Legacy glibc locale worlds made without root (`localedef -i INPUT -f CHARMAP DIR/NAME`,
then `LOCPATH=DIR LC_ALL=NAME`), the byte strings that break a decode/re-encode in each,
and two tiny C programs that see and set bytes without any text layer in between:

- `observe ARGS...` writes its argc in decimal and a newline, then each argv entry
  (argv[0] included) and each environ entry, each followed by a NUL: the exact bytes a
  command receives;
- `execenv FILE PROGRAM ARGS...` execs PROGRAM with exactly the NUL-terminated entries of
  FILE as its environment: duplicates, entries without '=', any bytes, in that order
  (os.execve and subprocess take a mapping and cannot express them).

Used by tests/test_bytes.py."""
import collections
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

World = collections.namedtuple("World", "key input charmap folder lc_all cases")
# `folder` is the name localedef writes (Debian's spelling); `lc_all` the name given to
# LC_ALL: glibc tries it as given, then with the codeset normalised (lower case, no '-'),
# which finds `folder` (ka_GE.georgianps and ja_JP.windows31j are not found when given in
# that spelling, their charmap names are). `cases`: argument and value bytes.
#
# The cases were found by comparing glibc's mbstowcs() in the world with Python's codec
# of the same name (3.13): bytes libc decodes to a character the codec encodes
# differently (`changed`), to a character the codec cannot encode (`unencodable`), bytes
# libc rejects (`invalid`, which a decoder escapes), and sequences cut short.
WORLDS = [
    World("big5", "zh_TW", "BIG5", "zh_TW.big5", "zh_TW.BIG5", [
        b"A\xa1\xfeB",          # changed: U+FF0F, which the codec writes \xa2A (the issue)
        b"\xa2\x40",            # changed: U+FF3C -> \xa2B
        b"\xa2\xcc",            # changed: U+5341 -> \xa4Q
        b"\xf9\xf9\xf9\xfe",    # changed: box drawing, ETEN extension -> \xa2\xa4 ...
        b"\xc7\x42",            # unencodable: U+F711 (private use)
        b"\x80",                # unencodable: glibc gives U+0080
        b"\xff", b"\xa1", b"A\xa1",   # invalid, a lead byte alone, cut at the end
    ]),
    World("big5hkscs", "zh_HK", "BIG5-HKSCS", "zh_HK.big5hkscs", "zh_HK.BIG5-HKSCS", [
        b"A\xa1\xfeB",
        b"\xa2\x7e", b"\xa2\xa4",       # changed: box drawing -> \xf9\xfa, \xf9\xf9
        b"\x88\x62\x88\x64",            # one code each for two characters (U+00CA U+0304)
        b"\x80",                        # unencodable: U+0080
        b"\xff", b"\x88",
    ]),
    World("eucjp", "ja_JP", "EUC-JP", "ja_JP.eucjp", "ja_JP.EUC-JP", [
        b"\x8f\xa2\xaf",        # JIS X 0212, three bytes (U+02D8)
        b"\x8e\xa1",            # half-width katakana (U+FF61)
        b"\x8f\xa2\xb7",        # unencodable: glibc gives U+FF5E
        b"\xa1\xc1",            # U+301C, the wave dash
        b"\x80",                # unencodable: U+0080
        b"\x8f\xa2", b"\x8e", b"\xff",  # cut short, invalid
    ]),
    World("gb18030", "zh_CN", "GB18030", "zh_CN.gb18030", "zh_CN.GB18030", [
        b"\x81\x30\x81\x30",    # four bytes: U+0080, the first
        b"\x84\x31\xa4\x39",    # four bytes: U+FFFF, the last of the BMP
        b"\x90\x30\x81\x30",    # four bytes: U+10000
        b"\xe3\x32\x9a\x35",    # four bytes: U+10FFFF
        b"\xfe\x39\xfe\x39",    # four bytes past U+10FFFF: invalid
        b"\x84\x31\xa5\x30",    # four bytes between the ranges: invalid
        b"\xa6\xd9", b"\xa8\xbc", b"\xfe\x51",  # changed: two bytes the codec writes as four
        b"\x81\x30", b"\x81", b"\x80", b"\xff",  # cut short, invalid
    ]),
    World("armscii8", "hy_AM", "ARMSCII-8", "hy_AM.armscii8", "hy_AM.ARMSCII-8", [
        b"\xb2\xe1\xf0\xe5",    # Armenian letters; CPython has no ARMSCII-8 codec
        b"\xa1\xff", b"\x80",
    ]),
    World("georgianps", "ka_GE", "GEORGIAN-PS", "ka_GE.georgianps", "ka_GE.GEORGIAN-PS", [
        b"\xc0\xe0\xfe",        # Georgian letters; no GEORGIAN-PS codec
        b"\x80\x9f", b"\xff",
    ]),
    World("euctw", "zh_TW", "EUC-TW", "zh_TW.euctw", "zh_TW.EUC-TW", [
        b"\x8e\xa2\xa1\xa1",    # CNS 11643 plane 2, four bytes; no EUC-TW codec
        b"\xa1\xa1", b"\xc4\xa1",
        b"\x8e\xa2", b"\xff", b"\x80",
    ]),
    World("windows31j", "ja_JP", "WINDOWS-31J", "ja_JP.windows31j", "ja_JP.WINDOWS-31J", [
        b"\x87\x90",            # NEC row 13: U+2252, which cp932 (3.13+) writes \x81\xe0
        b"\xfa\x42",            # IBM extension: U+2172, cp932 writes \xee\xf1
        b"\x81\x5f", b"\x5c",   # U+FF3C; the yen/backslash byte
        b"\x80", b"\xa0", b"\xfd", b"\x81",    # rejected by glibc, decoded by cp932
    ]),
]
BY_KEY = {w.key: w for w in WORLDS}
# Worlds whose codeset every CPython 3.6-3.13 has a codec for (its own interpreter starts
# there); WINDOWS-31J only from 3.13 (cp932 under that name).
PYTHON_CODECS = {"big5": "big5", "big5hkscs": "big5hkscs", "eucjp": "euc_jp",
                 "gb18030": "gb18030"}


def tools_missing():
    """Why the worlds cannot be made here, or None."""
    for tool in ("localedef", "locale"):
        if shutil.which(tool) is None:
            return "no %s" % tool
    if not os.path.isdir("/usr/share/i18n/locales"):
        return "no /usr/share/i18n/locales (glibc's locale sources)"
    return None


def _compile(world, locpath):
    # localedef exits 1 when it only warned (some charmaps lack characters the input names)
    # and still writes the locale: the folder and `locale charmap` decide.
    out = os.path.join(locpath, world.folder)
    result = subprocess.run(["localedef", "-i", world.input, "-f", world.charmap, out],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    if not os.path.isdir(out):
        return "localedef -i %s -f %s made nothing: %s" % (
            world.input, world.charmap, result.stdout.decode(errors="replace").strip()[-300:])
    live = charmap(world, locpath)
    if live != world.charmap:
        return "LC_ALL=%s with LOCPATH gives the charmap %r, not %s" % (
            world.lc_all, live, world.charmap)
    return None


def charmap(world, locpath):
    """`locale charmap` in the world: its codeset when the world is live."""
    result = subprocess.run(["locale", "charmap"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL,
                            env={"PATH": "/usr/bin:/bin", "LOCPATH": locpath,
                                 "LC_ALL": world.lc_all})
    return result.stdout.decode("ascii", "replace").strip()


def build(locpath, worlds=WORLDS, workers=2):
    """Compile `worlds` into `locpath` (localedef is single-threaded and slow for the CJK
    charmaps: in parallel). Returns {key: None when live, else why not}."""
    os.makedirs(locpath, exist_ok=True)
    with ThreadPoolExecutor(workers) as pool:
        reasons = list(pool.map(lambda w: _compile(w, locpath), worlds))
    return {w.key: reason for w, reason in zip(worlds, reasons)}


OBSERVE_C = r"""
#include <stdio.h>
#include <string.h>
#include <unistd.h>
extern char **environ;
static void put(const char *s, size_t n) {
    while (n) {
        ssize_t w = write(1, s, n);
        if (w <= 0) _exit(3);
        s += w; n -= (size_t)w;
    }
}
int main(int argc, char **argv) {
    char head[32];
    put(head, (size_t)snprintf(head, sizeof head, "%d\n", argc));
    for (int i = 0; i < argc; i++) put(argv[i], strlen(argv[i]) + 1);
    for (char **e = environ; *e; e++) put(*e, strlen(*e) + 1);
    return 0;
}
"""

EXECENV_C = r"""
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
static char buf[1 << 20];
static char *env[1 << 14];
int main(int argc, char **argv) {
    if (argc < 3) { fputs("usage: execenv FILE PROGRAM [ARGS...]\n", stderr); return 120; }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { perror(argv[1]); return 120; }
    size_t n = 0, k = 0, start = 0;
    ssize_t r;
    while ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)r;
    close(fd);
    for (size_t i = 0; i < n && k + 1 < sizeof env / sizeof *env; i++)
        if (buf[i] == 0) { env[k++] = buf + start; start = i + 1; }
    env[k] = NULL;
    execve(argv[2], argv + 2, env);
    perror(argv[2]);
    return 121;
}
"""


def compile_tools(folder, cc=None):
    """Build `observe` and `execenv` in `folder`; their paths, or a reason string."""
    cc = cc or os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return "no C compiler (cc, gcc or CC) for the observer programs"
    paths = []
    for name, source in (("observe", OBSERVE_C), ("execenv", EXECENV_C)):
        c_file = os.path.join(folder, name + ".c")
        with open(c_file, "w") as f:
            f.write(source)
        out = os.path.join(folder, name)
        result = subprocess.run([cc, "-O", "-o", out, c_file], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        if result.returncode != 0:
            return "%s cannot build %s: %s" % (cc, name, result.stdout.decode(errors="replace"))
        paths.append(out)
    return tuple(paths)


def parse(output):
    """observe's output: (argv, environ), lists of bytes."""
    head, _, rest = output.partition(b"\n")
    argc = int(head)
    items = rest.split(b"\0")
    assert items[-1] == b"", output      # every entry ends with a NUL
    items = items[:-1]
    return items[:argc], items[argc:]


def write_environ(path, entries):
    with open(path, "wb") as f:
        f.write(b"".join(entry + b"\0" for entry in entries))


def name_of(entry):
    return entry.partition(b"=")[0] if b"=" in entry else None


def is_identifier(name):
    return (name is not None and name != b"" and not name[:1].isdigit()
            and all(c == 0x5f or 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5a or 0x61 <= c <= 0x7a
                    for c in name))


def within_limits(entries, given, identifiers_only=False, drop=()):
    """`entries` without what a mapping-based exec cannot keep of the environment `given`
    (entries without '=', every entry of a name `given` holds more than once), without
    names that are not shell identifiers when `identifiers_only` (dash), and without the
    names in `drop`; sorted, since a mapping keeps no order a test may rely on."""
    names = [name_of(e) for e in given]
    repeated = {n for n in names if n is not None and names.count(n) > 1}
    kept = []
    for entry in entries:
        name = name_of(entry)
        if name is None or name in repeated or name in drop:
            continue
        if identifiers_only and not is_identifier(name):
            continue
        kept.append(entry)
    return sorted(kept)
