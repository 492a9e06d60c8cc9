"""A libc described by the user (`explain --locales NAME[=CODESET],...`) rather than
asked: the locales of another machine or image, for a prediction made here."""
from .._errors import UsageError
from .codecs_by_version import glibc_spelling
from .policy import LocaleFacts

# nl_langinfo(CODESET) as glibc spells it for the codeset part of a locale name
# (en_US.ISO-8859-1, zh_CN.gb18030): a name's spelling varies, the codeset's does not.
# codecs_by_version.glibc_spelling knows every codeset glibc lists.


def _guess_codeset(name):
    """The codeset a libc gives a locale name such as en_US.ISO-8859-1 or zh_CN.gb18030."""
    if name.upper().replace("-", "") == "UTF8":
        return "UTF-8"
    base, dot, codeset = name.partition("@")[0].partition(".")
    if not dot:
        return "ANSI_X3.4-1968" if base in ("C", "POSIX") else "ISO-8859-1"
    return glibc_spelling(codeset) or codeset.upper()


def modelled(text):
    """--locales NAME[=CODESET],...: LocaleFacts of a libc that has exactly these locales."""
    codesets = {}
    for item in text.split(","):
        name, sep, codeset = item.strip().partition("=")
        if not name or (sep and not codeset):
            raise UsageError("--locales %r: expected NAME[=CODESET],... such as "
                             "C.UTF-8,en_US.ISO-8859-1" % text)
        codesets[name] = codeset or _guess_codeset(name)
    return LocaleFacts(codesets)
