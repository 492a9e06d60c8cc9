"""The locale worlds as data: which compiled glibc locales each world has, and how each
locale is compiled (`localedef -i INPUT -f CHARMAP`, from glibc's own sources under
/usr/share/i18n).

A world either adds locales to what is installed (it names C.utf8 and one legacy
locale: LOCPATH is enough) or hides what is installed (no locales at all, or only
en_US.UTF-8: /usr/lib/locale must be covered, which takes a mount namespace).
The Windows worlds are stand-ins for Windows' ANSI code page, the encoding Windows gives
files, pipes and open(): glibc's charmap of that code page as the locale's codeset. They
are not Windows' console encoding (UTF-16 through WindowsConsoleIO, PEP 528) nor its
file-system encoding (UTF-8, PEP 529).
"""
from .._engine.records import Record, field


class Locale(Record):
    folder = field()      # the folder localedef writes (Debian's spelling of the name)
    name = field()        # the name LANG gives, e.g. en_US.ISO-8859-1
    input = field()       # localedef -i (/usr/share/i18n/locales/INPUT)
    charmap = field()     # localedef -f (/usr/share/i18n/charmaps/CHARMAP[.gz])


LOCALES = (
    Locale("C.utf8", "C.UTF-8", "C", "UTF-8"),
    Locale("en_US.utf8", "en_US.UTF-8", "en_US", "UTF-8"),
    Locale("en_US.iso88591", "en_US.ISO-8859-1", "en_US", "ISO-8859-1"),
    Locale("zh_CN.gb18030", "zh_CN.GB18030", "zh_CN", "GB18030"),
    Locale("en_US.cp1252", "en_US.CP1252", "en_US", "CP1252"),
    Locale("ru_RU.cp1251", "ru_RU.CP1251", "ru_RU", "CP1251"),
    Locale("zh_CN.gbk", "zh_CN.GBK", "zh_CN", "GBK"),
    # WINDOWS-31J is cp932 (IANA's name for it); glibc finds the folder under the
    # charmap's own spelling only (ja_JP.WINDOWS-31J, not ja_JP.windows31j).
    Locale("ja_JP.windows31j", "ja_JP.WINDOWS-31J", "ja_JP", "WINDOWS-31J"),
    Locale("zh_TW.big5", "zh_TW.BIG5", "zh_TW", "BIG5"),
)
LOCALE = {l.folder: l for l in LOCALES}


class World(Record):
    name = field()
    folders = field()     # the locale folders it has; None: what is installed, untouched
    hides = field()       # True: what is installed must be hidden (a mount namespace)
    description = field()
    windows = field(None)  # the Windows ANSI code page it stands in for (1252), or None

    def locale_names(self):
        """Its locales as `explain --locales` takes them, NAME=CODESET,... (C.UTF-8 in
        both spellings, as glibc finds it under both); None for the installed world."""
        if self.folders is None:
            return None
        names = []
        for folder in self.folders:
            loc = LOCALE[folder]
            names += ["C.UTF-8", "C.utf8"] if folder == "C.utf8" else [loc.name]
            names[-1:] = [n + "=" + loc.charmap for n in names[-1:]]
        return ",".join(n if "=" in n else n + "=UTF-8" for n in names)


def _adds(name, folder, description, windows=None):
    return World(name, ("C.utf8", folder), False, description, windows)


WORLDS_DATA = (
    World("installed", None, False, "the locales installed here"),
    World("no-locales", (), True, "no locale installed"),
    World("en_US-only", ("en_US.utf8",), True, "only en_US.UTF-8 (no C.UTF-8)"),
    World("en_US", ("C.utf8", "en_US.utf8"), False, "C.UTF-8 and en_US.UTF-8"),
    _adds("latin1", "en_US.iso88591", "C.UTF-8 and en_US.ISO-8859-1"),
    _adds("gb18030", "zh_CN.gb18030", "C.UTF-8 and zh_CN.GB18030"),
    _adds("cp1252", "en_US.cp1252", "C.UTF-8 and en_US.CP1252", 1252),
    _adds("cp1251", "ru_RU.cp1251", "C.UTF-8 and ru_RU.CP1251", 1251),
    _adds("gbk", "zh_CN.gbk", "C.UTF-8 and zh_CN.GBK", 936),
    _adds("cp932", "ja_JP.windows31j", "C.UTF-8 and ja_JP.WINDOWS-31J", 932),
    _adds("big5", "zh_TW.big5", "C.UTF-8 and zh_TW.BIG5", 950),
)
WORLD = {w.name: w for w in WORLDS_DATA}
WORLDS = tuple(w.name for w in WORLDS_DATA)
# The Windows ANSI code-page stand-ins, in the order they are offered.
WINDOWS = tuple(w.name for w in WORLDS_DATA if w.windows)
WINDOWS_NOTE = ("stand-ins for Windows' ANSI code page (files, pipes, open()), built "
                "from glibc's charmaps; not Windows' console or file-system encoding")


def world(name):
    """The World named `name`; ValueError for another name."""
    try:
        return WORLD[name]
    except KeyError:
        raise ValueError("unknown world {!r}; expected one of {}".format(name, WORLDS)) from None
