"""Which text codec each CPython version finds for a name: data measured with the real
interpreters, never asked of the Python running utf8env (its codecs are its own
version's).

Start-up asks codecs.lookup() for the locale's codeset, nl_langinfo(CODESET) as glibc
spells it (Python/initconfig.c config_get_codec_name; 3.6/3.7 pylifecycle.c
get_codec_name), and for PYTHONIOENCODING's encoding: where none is found the
interpreter refuses to start, and where one is found it reports the codec's own name
(ARMSCII-8 has none, RK1048 is kz1048, WINDOWS-31J is cp932 from 3.13 on). What each
version prints when it refuses is here too.

Measured (tests/test_codesets_groundtruth.py re-checks it) on pyenv's 3.6.15, 3.7.16,
3.8.18, 3.9.18, 3.10.13, 3.11.7, 3.12.1, 3.13.0 and Debian's 3.14.10 and 3.15.2:
codecs.lookup() of every codeset below, and of every name in each version's
encodings.aliases and encodings package, in each version; and start-up in a locale of
each codeset (localedef, LOCPATH).
"""

# Versions as (3, minor) from which a value holds: ((since, codec name or None), ...),
# the first step from (3, 6).
_NONE = (((3, 6), None),)


def _always(codec):
    return (((3, 6), codec),)


# Every codeset glibc's /usr/share/i18n/SUPPORTED lists (glibc 2.36 and 2.43 list the
# same 31), WINDOWS-31J (a charmap glibc ships that SUPPORTED does not list), and the C
# locale's ANSI_X3.4-1968, spelled as nl_langinfo(CODESET) gives them.
GLIBC_CODESETS = {
    "ANSI_X3.4-1968": _always("ascii"),
    "ARMSCII-8": _NONE,
    "BIG5": _always("big5"),
    "BIG5-HKSCS": _always("big5hkscs"),
    "CP1251": _always("cp1251"),
    "CP1255": _always("cp1255"),
    "EUC-JP": _always("euc_jp"),
    "EUC-KR": _always("euc_kr"),
    "EUC-TW": _NONE,
    "GB18030": _always("gb18030"),
    "GB2312": _always("gb2312"),
    "GBK": _always("gbk"),
    "GEORGIAN-PS": _NONE,
    "ISO-8859-1": _always("iso8859-1"),
    "ISO-8859-10": _always("iso8859-10"),
    "ISO-8859-13": _always("iso8859-13"),
    "ISO-8859-14": _always("iso8859-14"),
    "ISO-8859-15": _always("iso8859-15"),
    "ISO-8859-2": _always("iso8859-2"),
    "ISO-8859-3": _always("iso8859-3"),
    "ISO-8859-5": _always("iso8859-5"),
    "ISO-8859-6": _always("iso8859-6"),
    "ISO-8859-7": _always("iso8859-7"),
    "ISO-8859-8": _always("iso8859-8"),
    "ISO-8859-9": _always("iso8859-9"),
    "KOI8-R": _always("koi8-r"),
    "KOI8-T": _always("koi8-t"),
    "KOI8-U": _always("koi8-u"),
    "PT154": _always("ptcp154"),
    "RK1048": _always("kz1048"),
    "TIS-620": _always("tis-620"),
    "UTF-8": _always("utf-8"),
    # encodings.aliases gained windows_31j in 3.13.
    "WINDOWS-31J": (((3, 6), None), ((3, 13), "cp932")),
}

# The names whose codec differs between 3.6 and 3.15 (every other name in any version's
# encodings.aliases or encodings package finds the same codec, or none, in all ten), by
# the key _key() makes of them. Aliases added in 3.8 (cp65001 on every platform, ibm1051),
# 3.13 (windows_31j), 3.14 and 3.15 (IANA's cs* names, the Korean names moved to cp949);
# unicode_internal removed in 3.8; mac_centeuro renamed in 3.9.
BY_VERSION = {
    "874": (((3, 6), None), ((3, 14), "cp874")),
    "ccsid00858": (((3, 6), None), ((3, 15), "cp858")),
    "ccsid01140": (((3, 6), None), ((3, 15), "cp1140")),
    "cp00858": (((3, 6), None), ((3, 14), "cp858")),
    "cp01140": (((3, 6), None), ((3, 14), "cp1140")),
    "cp1051": (((3, 6), None), ((3, 8), "hp-roman8")),
    "cp65001": (((3, 6), None), ((3, 8), "utf-8")),
    "csbig5hkscs": (((3, 6), None), ((3, 15), "big5hkscs")),
    "cseuckr": (((3, 6), None), ((3, 14), "euc_kr")),
    "cseucpkdfmtjapanese": (((3, 6), None), ((3, 15), "euc_jp")),
    "csgb18030": (((3, 6), None), ((3, 15), "gb18030")),
    "csgb2312": (((3, 6), None), ((3, 15), "gb2312")),
    "csgbk": (((3, 6), None), ((3, 15), "gbk")),
    "cshproman8": (((3, 6), None), ((3, 15), "hp-roman8")),
    "csibm00858": (((3, 6), None), ((3, 14), "cp858")),
    "csibm01140": (((3, 6), None), ((3, 14), "cp1140")),
    "csiso2022jp2": (((3, 6), None), ((3, 15), "iso2022_jp_2")),
    "csiso885913": (((3, 6), None), ((3, 15), "iso8859-13")),
    "csiso885914": (((3, 6), None), ((3, 15), "iso8859-14")),
    "csiso885915": (((3, 6), None), ((3, 15), "iso8859-15")),
    "csiso885916": (((3, 6), None), ((3, 15), "iso8859-16")),
    "csiso88598e": (((3, 6), None), ((3, 15), "iso8859-8")),
    "csiso88598i": (((3, 6), None), ((3, 15), "iso8859-8")),
    "cskoi8u": (((3, 6), None), ((3, 15), "koi8-u")),
    "csksc56011987": (((3, 6), None), ((3, 15), "cp949")),
    "cskz1048": (((3, 6), None), ((3, 15), "kz1048")),
    "csmacintosh": (((3, 6), None), ((3, 15), "mac-roman")),
    "cstis620": (((3, 6), None), ((3, 15), "tis-620")),
    "csunicode11utf7": (((3, 6), None), ((3, 15), "utf-7")),
    "csutf16": (((3, 6), None), ((3, 15), "utf-16")),
    "csutf16be": (((3, 6), None), ((3, 15), "utf-16-be")),
    "csutf16le": (((3, 6), None), ((3, 15), "utf-16-le")),
    "csutf32": (((3, 6), None), ((3, 15), "utf-32")),
    "csutf32be": (((3, 6), None), ((3, 15), "utf-32-be")),
    "csutf32le": (((3, 6), None), ((3, 15), "utf-32-le")),
    "csutf7": (((3, 6), None), ((3, 15), "utf-7")),
    "csutf8": (((3, 6), None), ((3, 15), "utf-8")),
    "cswindows1250": (((3, 6), None), ((3, 15), "cp1250")),
    "cswindows1251": (((3, 6), None), ((3, 15), "cp1251")),
    "cswindows1252": (((3, 6), None), ((3, 15), "cp1252")),
    "cswindows1253": (((3, 6), None), ((3, 15), "cp1253")),
    "cswindows1254": (((3, 6), None), ((3, 15), "cp1254")),
    "cswindows1255": (((3, 6), None), ((3, 15), "cp1255")),
    "cswindows1256": (((3, 6), None), ((3, 15), "cp1256")),
    "cswindows1257": (((3, 6), None), ((3, 15), "cp1257")),
    "cswindows1258": (((3, 6), None), ((3, 15), "cp1258")),
    "cswindows31j": (((3, 6), None), ((3, 15), "cp932")),
    "cswindows874": (((3, 6), None), ((3, 15), "cp874")),
    "ebcdic_us_37_euro": (((3, 6), None), ((3, 14), "cp1140")),
    "gb_2312_80": (((3, 6), None), ((3, 15), "gb2312")),
    "ibm00858": (((3, 6), None), ((3, 14), "cp858")),
    "ibm01140": (((3, 6), None), ((3, 14), "cp1140")),
    "ibm1051": (((3, 6), None), ((3, 8), "hp-roman8")),
    "iso_8859_8_e": (((3, 6), None), ((3, 14), "iso8859-8")),
    "iso_8859_8_i": (((3, 6), None), ((3, 14), "iso8859-8")),
    "iso_ir_149": (((3, 6), None), ((3, 15), "cp949")),
    "korean": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "ks_c_5601": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "ks_c_5601_1987": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "ks_c_5601_1989": (((3, 6), None), ((3, 15), "cp949")),
    "ks_x_1001": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "ksc5601": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "ksc_5601": (((3, 6), None), ((3, 15), "cp949")),
    "ksx1001": (((3, 6), "euc_kr"), ((3, 15), "cp949")),
    "latin_10": (((3, 6), None), ((3, 15), "iso8859-16")),
    "latin_2": (((3, 6), None), ((3, 15), "iso8859-2")),
    "latin_3": (((3, 6), None), ((3, 15), "iso8859-3")),
    "latin_4": (((3, 6), None), ((3, 15), "iso8859-4")),
    "latin_5": (((3, 6), None), ((3, 15), "iso8859-9")),
    "latin_6": (((3, 6), None), ((3, 15), "iso8859-10")),
    "latin_7": (((3, 6), None), ((3, 15), "iso8859-13")),
    "latin_8": (((3, 6), None), ((3, 15), "iso8859-14")),
    "latin_9": (((3, 6), None), ((3, 15), "iso8859-15")),
    "mac": (((3, 6), None), ((3, 15), "mac-roman")),
    "mac_centeuro": (((3, 6), "mac-centeuro"), ((3, 9), "mac-latin2")),
    "ms874": (((3, 6), None), ((3, 14), "cp874")),
    "pc_multilingual_850_euro": (((3, 6), None), ((3, 14), "cp858")),
    "unicode_internal": (((3, 6), "unicode-internal"), ((3, 8), None)),
    "utf8_sig": (((3, 6), None), ((3, 15), "utf-8-sig")),
    "windows_31j": (((3, 6), None), ((3, 13), "cp932")),
    "windows_874": (((3, 6), None), ((3, 14), "cp874")),
    "windows_936": (((3, 6), None), ((3, 15), "gbk")),
}


def _key(name):
    """The name as codecs.lookup() searches encodings.aliases for it (lower case, every run
    of characters other than letters, digits and '.' one '_', none at either end:
    Lib/encodings/__init__.py normalize_encoding)."""
    out, gap = [], False
    for char in name.lower():
        if ("a" <= char <= "z") or ("0" <= char <= "9") or char == ".":
            if gap and out:
                out.append("_")
            out.append(char)
            gap = False
        else:
            gap = True
    return "".join(out)


def _at(steps, version):
    value = None
    for since, codec in steps:
        if since <= version:
            value = codec
    return value


def _steps(name):
    """The measured steps for `name`, or None where every version agrees."""
    steps = GLIBC_CODESETS.get(name)
    if steps is None:
        steps = BY_VERSION.get(_key(name))
    return steps


# Codecs of the Windows builds only (Lib/encodings: mbcs.py, oem.py, cp65001.py before 3.8
# made it an alias of utf_8 everywhere), from CPython's source: not measured here.
_WINDOWS_ONLY = {
    "mbcs": _always("mbcs"),
    "dbcs": _always("mbcs"),
    "oem": _always("oem"),
    "cp65001": (((3, 6), "cp65001"), ((3, 8), "utf-8")),
}


def codec_name(name, version, platform="linux"):
    """The codec name CPython `version` ((3, 12)) on `platform` finds for `name`, or None
    where it finds none. The tables decide the names they hold; any other name finds the
    same codec in every version 3.6-3.15 (measured), so the running Python's codecs answer
    for it."""
    steps = _WINDOWS_ONLY.get(_key(name)) if platform == "win32" else None
    if steps is None:
        steps = _steps(name)
    if steps is not None:
        return _at(steps, version)
    from .textnames import lookup
    codec = lookup(name)
    return codec.name if codec else None


def versions_with_codec(name):
    """In words, which versions find a codec for `name`, from the tables: "cp932 in
    3.13-3.15"; "" where no version 3.6-3.15 does, or the tables do not hold `name`."""
    steps = _steps(name)
    if steps is None:
        return ""
    spans = []
    for index, (since, codec) in enumerate(steps):
        if codec is None:
            continue
        until = steps[index + 1][0] if index + 1 < len(steps) else (3, 16)
        last = (until[0], until[1] - 1)
        span = "%d.%d" % since if last == since else "%d.%d-%d.%d" % (since + last)
        spans.append("%s in %s" % (codec, span))
    return ", ".join(spans)


def no_codec(name, version):
    """Why CPython `version` ("3.12") finds no codec for `name`, in words."""
    return "CPython %s has no codec for %s (%s)" % (
        version, name, versions_with_codec(name) or "none in 3.6-3.15")


# What start-up prints where the locale's codeset has no codec (measured with a locale of
# each codeset without one, every variable set of tests/test_codesets_groundtruth.py).
# 3.8+ print their path configuration first (Python/pathconfig.c _Py_DumpPathConfig):
# its other lines (PYTHONHOME, the flags, sys.prefix, sys.path ...) are the
# installation's, which no input gives, so Decision.stderr_messages holds its first line
# and this placeholder for them.
PATH_CONFIGURATION = ("Python path configuration:",
                      "  <this installation's paths and flags: not modelled>")
# 3.11 and 3.12 in UTF-8 mode, where site reads a .pth file: the traceback follows.
SITE_FAILURE = ("Fatal Python error: init_import_site: Failed to import the site module",
                "Python runtime state: initialized", "Traceback (most recent call last):")


def startup_failure(codeset, version):
    """(lines printed before, the fatal error's lines, exit status) of CPython `version`
    ((3, 12)) where the filesystem encoding is `codeset` and it has no codec: 3.6 and 3.7
    abort (134, 3.6 naming Py_Initialize), 3.8+ exit with status 1. A traceback of the
    thread follows."""
    lookup = "LookupError: unknown encoding: %s" % codeset
    if version < (3, 8):
        function = "Py_Initialize" if version < (3, 7) else "initfsencoding"
        return (), ("Fatal Python error: %s: Unable to get the locale encoding" % function,
                    lookup), 134
    return PATH_CONFIGURATION, (
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the "
        "filesystem encoding", "Python runtime state: core initialized", lookup), 1


def glibc_spelling(codeset_part):
    """The nl_langinfo(CODESET) spelling of a locale name's codeset part as glibc's folder
    names shorten it ("armscii8", "iso88591", "windows31j" -> "ARMSCII-8", "ISO-8859-1",
    "WINDOWS-31J"), or None for a part that names no codeset of GLIBC_CODESETS."""
    wanted = codeset_part.lower().replace("-", "").replace("_", "")
    for codeset in GLIBC_CODESETS:
        if codeset.lower().replace("-", "").replace("_", "") == wanted:
            return codeset
    return None
