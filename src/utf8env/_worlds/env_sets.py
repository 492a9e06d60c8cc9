"""The text environments a program runs in, for the matrix and readiness alike: the rows
of the PEP reproduction, each a set of concrete environments (interpreter, locale world,
variables, options, launcher), and the named environment sets of the user-program mode
(readiness runs a suite in one of them)."""
from .. import _discovery as discovery
from .catalog import LOCALE, WINDOWS, WORLD
from .._engine.profiles import warns_default_encoding
from .._engine.records import Record, field

PATH = "/usr/local/bin:/usr/bin:/bin"
_LATIN1 = "LANG=en_US.ISO-8859-1"
GB18030 = "LANG=zh_CN.GB18030"


class Environment(Record):
    """One concrete environment of a row: interpreter, world, variables, options."""
    row = field()
    name = field()            # e.g. "3.6 LANG=C"
    version = field()
    argv = field()            # the interpreter command (chroot prefix included)
    root = field()            # "/" or the chroot the interpreter lives in
    world = field()
    variables = field()       # ((name, value), ...) set for the interpreter
    options = field()         # interpreter options, before the program
    launcher = field()        # None, or the --utf8 value given to `utf8env run`
    encoding = field()        # the terminal's / consumer's / file reader's encoding
    expect = field()          # ((field, value), ...): check fields the row requires
    origin = field(None)      # where the interpreter was found (_discovery.Interpreter.origin)

    def environ(self):
        env = {"PATH": PATH}
        env.update(self.variables)
        return env

    def _json(self):
        return dict(self._asdict(), variables=dict(self.variables), expect=dict(self.expect))


def _env(row, interp, world, variables, options=(), launcher=None, encoding="utf-8", expect=()):
    words = [interp.version] + ["%s=%s" % kv for kv in variables] + list(options)
    if launcher:
        words.insert(0, "utf8env run --utf8 %s --" % launcher)
    if world != "installed":
        words.append("[%s world]" % world)
    return Environment(row=row, name=" ".join(words), version=interp.version,
                       argv=tuple(interp.argv), root=interp.root, origin=interp.origin, world=world,
                       variables=tuple(variables), options=tuple(options), launcher=launcher,
                       encoding=encoding, expect=tuple(expect))


def _vars(text):
    return tuple(tuple(w.split("=", 1)) for w in text.split()) if text else ()


def pep_environments(found=None, py27=None):
    """The rows of the PEP reproduction, each with its concrete environments."""
    if found is None:
        found = discovery.interpreters()
        py27 = discovery.python27()
    by = {i.version: i for i in found}
    new = [i for i in found if i.version != "3.6"]          # 3.7+
    host_new = [i for i in new if i.root == "/"]
    legacy = (("utf8_mode", 0), ("stdout", "ascii"))
    utf8 = (("utf8_mode", 1), ("stdout", "utf-8"))
    out = []
    locales = (("installed", "LANG=C", "utf-8"), ("latin1", _LATIN1, "iso8859-1"),
               ("gb18030", GB18030, "gb18030"))
    if py27:
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales:
            out.append(_env("Python 2", py27, world, _vars(v), encoding=enc))
    if "3.6" in by:
        py36 = by["3.6"]
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales[1:]:
            out.append(_env("Python 3", py36, world, _vars(v), encoding=enc))
        for world, v in (("installed", "LANG=C"), ("installed", "LC_ALL=POSIX"), ("no-locales", "")):
            out.append(_env("Python 3.5, POSIX locale", py36, world, _vars(v), expect=legacy))
    for interp in new:
        for world, v, enc in locales:
            out.append(_env("UTF-8 mode", interp, world, _vars(v), ("-X", "utf8"),
                            encoding=enc, expect=utf8))
    if "3.6" in by:
        for world, v, enc in locales:
            out.append(_env("UTF-8 mode", by["3.6"], world, _vars(v), launcher="1",
                            encoding=enc, expect=(("stdout", "utf-8"),)))
    # Strict mode exists only through the launcher's bootstrap: the oldest, a middle and
    # the newest host interpreter.
    strict = [by["3.6"]] if "3.6" in by else []
    strict += [host_new[len(host_new) // 2], host_new[-1]] if host_new else []
    for interp in strict:
        for world, v, enc in locales:
            out.append(_env("UTF-8 Strict mode", interp, world, _vars(v), launcher="strict",
                            encoding=enc, expect=(("stdout", "utf-8"), ("stdout_errors", "strict"))))
    for interp in new:
        for v in ("LANG=C", ""):
            out.append(_env("3.7+ C locale, as shipped", interp, "installed", _vars(v)))
        out.append(_env("3.7+ C locale, coercion and UTF-8 mode off", interp, "installed",
                        _vars("LANG=C PYTHONCOERCECLOCALE=0"), ("-X", "utf8=0"), expect=legacy))
    if "3.15" in by:
        for world, v, enc in (("installed", "LANG=C.UTF-8", "utf-8"),) + locales[1:]:
            out.append(_env("3.15 default (PEP 686)", by["3.15"], world, _vars(v), encoding=enc,
                            expect=(("utf8_mode", 1),)))
    pick = [py27] + [by.get(v) for v in ("3.6", "3.8", "3.12", "3.14")]
    for interp in pick:
        if interp:
            out.append(_env("no locale installed", interp, "no-locales", ()))
    return out


# -- the user-program mode --------------------------------------------------------------

def _locale_name(world):
    """The LANG of a world that adds one locale to C.UTF-8."""
    return LOCALE[WORLD[world].folders[-1]].name


class EnvSet(Record):
    name = field()
    world = field()
    variables = field()     # ((name, value), ...)
    utf8 = field()          # None: as the interpreter decides; "0"/"1": forced
    description = field()

    def _json(self):
        return dict(self._asdict(), variables=dict(self.variables))


# What a Windows stand-in's description adds.
_MORE = {"cp932": "; Python before 3.13 has no codec of that name and does not start"}
ENV_SETS = (
    # en_US.UTF-8, not C.UTF-8: 3.7+ give C.UTF-8 (a coercion target) surrogateescape on
    # stdio. C.UTF-8 stays, as on a desktop: the world adds en_US.UTF-8, hiding nothing.
    EnvSet(name="utf8-locale", world="en_US", variables=(("LANG", "en_US.UTF-8"),), utf8=None,
           description="LANG=en_US.UTF-8, as a desktop (strict stdio)"),
    EnvSet(name="c-locale", world="installed", variables=(("LANG", "C"),), utf8=None,
           description="LANG=C, as shipped (3.7+ coerce the locale and turn on UTF-8 mode)"),
    EnvSet(name="c-legacy", world="installed", variables=(("LANG", "C"), ("PYTHONCOERCECLOCALE", "0")),
           utf8="0",
           description="LANG=C with coercion and UTF-8 mode off: ASCII, as 3.6 and older containers"),
    EnvSet(name="utf8-mode", world="installed", variables=(("LANG", "C.UTF-8"),), utf8="1",
           description="UTF-8 mode on (-X utf8; 3.6 through utf8env run --utf8 1)"),
    EnvSet(name="latin1", world="latin1", variables=(("LANG", "en_US.ISO-8859-1"),), utf8=None,
           description="a Latin-1 locale"),
    EnvSet(name="gb18030", world="gb18030", variables=(("LANG", "zh_CN.GB18030"),), utf8=None,
           description="a GB18030 locale"),
    EnvSet(name="no-locales", world="no-locales", variables=(), utf8=None,
           description="no locale installed, no variable set"),
) + tuple(
    # Windows' ANSI code page (what Windows gives files, pipes and open()), stood in for by
    # a glibc locale whose codeset is glibc's charmap of that code page.
    EnvSet(name=name, world=name, variables=(("LANG", _locale_name(name)),), utf8=None,
           description="a stand-in for Windows' ANSI code page %s (glibc's %s%s): files, pipes, "
                       "open(); not Windows' console or file-system encoding" % (
                           WORLD[name].windows, LOCALE[WORLD[name].folders[-1]].charmap,
                           _MORE.get(name, "")))
    for name in WINDOWS)
ENV_SET_NAMES = tuple(e.name for e in ENV_SETS)
DEFAULT_ENV_SETS = ("utf8-locale", "c-locale", "c-legacy", "utf8-mode", "latin1")


def program_environment(interp, env_set, utf8):
    """The Environment of one run of the user's command; utf8 None/"0"/"1"."""
    options, launcher = [], None
    if warns_default_encoding(interp.version):
        options += ["-X", "warn_default_encoding"]
    if utf8 is not None and interp.version != "2.7":
        if interp.version == "3.6":
            launcher = "1" if utf8 == "1" else None
        else:
            options += ["-X", "utf8=" + utf8]
    return Environment(row="program", name="%s %s" % (interp.version, env_set.name),
                       version=interp.version, argv=tuple(interp.argv), root=interp.root,
                       world=env_set.world, variables=env_set.variables, options=tuple(options),
                       launcher=launcher, encoding="utf-8", expect=(), origin=interp.origin)
