"""Two well-known programs' start-up checks, predicted for each Python doctor found (pure):
click 7's "Click will abort further execution because Python 3 was configured to use ASCII
as encoding for the environment" and ansible's "ERROR: Ansible requires the locale encoding
to be UTF-8". Each rule follows the program's own code (quoted in the comments) and reads
only what the engine decided (a Decision) and the libc's answers (LocaleFacts).

Measured against the real programs on this project's machines (glibc 2.36, CPython 3.6-3.13
from pyenv; tests/test_doctor_programs.py runs them and compares every cell with these
rules): click 7.1.2 under 3.6-3.13, ansible-core 2.17.14 under 3.10 and 2.19.14 under
3.11-3.13 (the oldest and newest releases those Pythons install; initialize_locale() is the
same text in both). A Python outside those is not predicted: no claim without a measurement.

What was seen, in short: click 7 aborts only where locale.getpreferredencoding() is ASCII,
which on 3.7+ takes PYTHONUTF8=0 with the C locale kept (UTF-8 mode turns itself on in the
C locale, PEP 540); on 3.6 any C locale, a missing locale included (macOS's LC_CTYPE=UTF-8
too). ansible asks the locale
itself, not Python: setlocale(LC_ALL, "") must accept every category and the name LC_CTYPE
then has must say UTF-8. So LC_ALL=C stops it on every Python (UTF-8 mode changes no
locale, and LC_ALL blocks the coercion), so does PYTHONCOERCECLOCALE=0 with no locale set,
and so does a missing locale in any category (LANG=en_US.UTF-8 without en_US), even where
the coercion fixed LC_CTYPE; a missing LC_CTYPE alone (LC_CTYPE=UTF-8) passes on 3.7+, the
coercion replacing it. PYTHONUTF8=1 never makes ansible pass.
"""
from .._engine.preconfig import C_LOCALE_NAMES
from .._engine.records import Record, field
from ._fixes import applied
from ._locale_state import CATEGORIES, is_utf8
from ._records import Tool
from .._engine.policy import Inputs, decide


CLICK_PYTHONS = ("3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
ANSIBLE_PYTHONS = ("3.10", "3.11", "3.12", "3.13")

CLICK_MESSAGE = ("RuntimeError: Click will abort further execution because Python 3 was "
                 "configured to use ASCII as encoding for the environment. Consult "
                 "https://click.palletsprojects.com/python3/ for mitigation steps.")
ANSIBLE_UNSUPPORTED = ("ERROR: Ansible could not initialize the preferred locale: "
                       "unsupported locale setting")
ANSIBLE_ENCODING = "ERROR: Ansible requires the locale encoding to be UTF-8; Detected %s."
ANSIBLE_FS = "ERROR: Ansible requires the filesystem encoding to be UTF-8; Detected %s."

# The findings whose first fix changes the locale: their change is tried first, so that
# the variable named here is the one doctor already asks for.
_LOCALE_CODES = ("locale-missing", "lc-all-overrides", "c-locale", "legacy-codeset")


class Check(Record):
    """A program's start-up check under one Python, here."""
    program = field()           # "click 7", "ansible"
    passes = field()            # bool
    exit_code = field()         # 0, or the status it exits with
    message = field()           # the line it prints on stderr (None when it passes)
    reason = field()            # why, in words: the rule followed


def click7(decision):
    """click 7.1.2, click/_unicodefun.py _verify_python3_env(), called by
    BaseCommand.main() before the command runs:

        fs_enc = codecs.lookup(locale.getpreferredencoding()).name   # except: "ascii"
        if fs_enc != "ascii": return
        ... raise RuntimeError("Click will abort further execution ...")

    An uncaught RuntimeError: a traceback whose last line is that message (the locales it
    lists follow it, on lines of their own), exit status 1. getpreferredencoding() with
    do_setlocale=True reads LC_CTYPE as start-up left it (3.6 called setlocale(LC_CTYPE,
    "") then, 3.7+ too, after any coercion), and is "UTF-8" in UTF-8 mode (3.7+): the
    Decision's preferred_encoding."""
    import codecs
    encoding = decision.preferred_encoding
    try:
        name = codecs.lookup(encoding).name
    except (LookupError, TypeError):
        name = "ascii"          # click: `except Exception: fs_enc = "ascii"`
    if name != "ascii":
        return Check("click 7", True, 0, None,
                     "locale.getpreferredencoding() is %s, not ASCII" % encoding)
    return Check("click 7", False, 1, CLICK_MESSAGE,
                 "locale.getpreferredencoding() is %s (codec %s): click 7 raises RuntimeError"
                 % (encoding, name))


def ansible(decision, environ, facts):
    """ansible-core 2.17/2.19, lib/ansible/cli/__init__.py initialize_locale(), run when
    any ansible command imports ansible.cli:

        try:
            locale.setlocale(locale.LC_ALL, '')
            dummy, encoding = locale.getlocale()
        except (locale.Error, ValueError) as e:
            raise SystemExit(
                'ERROR: Ansible could not initialize the preferred locale: %s' % e)
        if not encoding or encoding.lower() not in ('utf-8', 'utf8'):
            raise SystemExit('ERROR: Ansible requires the locale encoding to be UTF-8; '
                             'Detected %s.' % encoding)
        fs_enc = sys.getfilesystemencoding()
        if fs_enc.lower() != 'utf-8':
            raise SystemExit('ERROR: Ansible requires the filesystem encoding to be UTF-8; '
                             'Detected %s.' % fs_enc)

    SystemExit with a string: that line on stderr, exit status 1."""
    # setlocale(LC_ALL, "") reads the environment as the interpreter left it: with the
    # coercion's LC_CTYPE=C.UTF-8 exported (PEP 538), which is why no locale at all passes
    # on 3.7+ and fails under PYTHONCOERCECLOCALE=0.
    env = applied(environ, (decision.child_environ or {}).items())
    # glibc: every category takes the first non-empty of LC_ALL, LC_<category>, LANG, else
    # C; setlocale(LC_ALL, "") fails as a whole (locale.Error "unsupported locale setting")
    # when any one of them names a locale the libc lacks.
    for category in CATEGORIES:
        name = env.get("LC_ALL") or env.get(category) or env.get("LANG") or "C"
        if name not in C_LOCALE_NAMES and not facts.accepts(name):
            return Check("ansible", False, 1, ANSIBLE_UNSUPPORTED,
                         "setlocale(LC_ALL, \"\") fails: %s is %s, which this libc lacks"
                         % (category, name))
    # getlocale() parses the name setlocale(LC_CTYPE, NULL) returns (Lib/locale.py
    # _parse_localename(normalize(name))); the codeset of the locale itself is not asked.
    # "C" gives (None, None): UTF-8 mode changes no locale, so LC_ALL=C fails on 3.11 too.
    lc_ctype = decision.lc_ctype
    try:
        encoding = _parsed_encoding(lc_ctype)
    except ValueError as error:
        return Check("ansible", False, 1,
                     "ERROR: Ansible could not initialize the preferred locale: %s" % error,
                     "locale.getlocale() cannot parse LC_CTYPE %s" % lc_ctype)
    if not encoding or encoding.lower() not in ("utf-8", "utf8"):
        return Check("ansible", False, 1, ANSIBLE_ENCODING % encoding,
                     "locale.getlocale() reads encoding %s from LC_CTYPE %s" % (encoding, lc_ctype))
    fs_encoding = decision.filesystem.encoding
    if fs_encoding.lower() != "utf-8":
        return Check("ansible", False, 1, ANSIBLE_FS % fs_encoding,
                     "sys.getfilesystemencoding() is %s" % fs_encoding)
    return Check("ansible", True, 0, None,
                 "setlocale(LC_ALL, \"\") accepts every category and LC_CTYPE %s says %s"
                 % (lc_ctype, encoding))


def _parsed_encoding(name):
    """locale.getlocale()'s encoding for a LC_CTYPE named `name`: Lib/locale.py's rule
    (getlocale parses normalize(name); 3.6-3.13 alike for the UTF-8 question; the alias
    table's "c.utf8" changed from en_US.UTF-8 to C.UTF-8 in 3.10, the encoding did not),
    spelled out over the public locale.normalize(): its private parser is not called."""
    import locale
    code = locale.normalize(name).partition("@")[0]
    if "." in code:
        return code.split(".")[1]
    if code == "C":
        return None
    if code == "UTF-8":
        return "UTF-8"
    raise ValueError("unknown locale: %s" % name)


def checks(decision, environ, facts):
    """The Checks of the programs predicted for this Decision's Python (none for a Python
    that does not start, or one outside the measured versions)."""
    if decision is None or decision.startup_error is not None or decision.platform != "linux":
        return ()
    out = []
    if decision.python in CLICK_PYTHONS:
        out.append(click7(decision))
    if decision.python in ANSIBLE_PYTHONS:
        out.append(ansible(decision, environ, facts))
    return tuple(out)


def _decide(item, decision, environ, facts):
    if item is not None and item.inputs is not None:
        return decide(item.inputs._replace(environ=environ))
    return decide(Inputs(environ=environ, args=(), version=decision.python,
                         platform=decision.platform, locales=facts))


def candidates(environ, facts, state, findings=(), version=None):
    """The changes to try, in order: the first fix of each locale finding (what doctor
    already asks for), all of them at once, then the locale variables made to name the
    UTF-8 locale this libc has, then the Python variables."""
    out = []
    locale_changes = [f.remedies[0].changes for f in findings
                      if f.code in _LOCALE_CODES and f.remedies and f.remedies[0].changes]
    out += locale_changes
    if len(locale_changes) > 1:
        merged = {}
        for changes in locale_changes:
            merged.update(changes)
        out.append(tuple(sorted(merged.items())))
    good = state.utf8_locale if state is not None else None
    if good:
        # LC_ALL unset (it overrides every category), then every locale variable that is
        # refused, C or not UTF-8 given the good locale, and LANG so that nothing is left C.
        if environ.get("LC_ALL"):
            out.append((("LC_ALL", None),))
        changes = [("LC_ALL", None)] if environ.get("LC_ALL") else []
        for name in ("LC_CTYPE",) + tuple(c for c in CATEGORIES if c != "LC_CTYPE") + ("LANG",):
            value = environ.get(name)
            if value and (value in C_LOCALE_NAMES or not facts.accepts(value)
                          or not is_utf8(facts.codesets.get(value))):
                changes.append((name, good))
        if not environ.get("LANG") and ("LANG", good) not in changes:
            changes.append(("LANG", good))
        out.append(tuple(changes))
    for name in ("PYTHONCOERCECLOCALE", "PYTHONUTF8"):
        if name in environ:
            out.append(((name, None),))
    if version != "3.6":
        out.append((("PYTHONUTF8", "1"),))
    return [c for i, c in enumerate(out) if c and c not in out[:i]]


def passing_change(program, item, decision, environ, facts, state, findings=()):
    """The first candidate change under which `program`'s check passes for this Python,
    checked by deciding again with it applied and predicting again; or None."""
    for changes in candidates(environ, facts, state, findings, decision.python):
        env = applied(environ, changes)
        again = _decide(item, decision, env, facts)
        for check in checks(again, env, facts):
            if check.program == program and check.passes:
                return changes
    return None


def describe(changes):
    return " and ".join("%s=%s" % (n, v) if v is not None else "%s unset" % n
                        for n, v in changes)


def tools(predicted, environ, facts, state, findings=()):
    """Tools for doctor's "other programs": one per program, message and fix, naming the
    Pythons whose start-up check fails here and the change that makes it pass."""
    groups, order = {}, []
    for item in predicted:
        for check in checks(item.decision, environ, facts):
            if check.passes:
                continue
            changes = passing_change(check.program, item, item.decision, environ, facts,
                                     state, findings)
            key = (check.program, check.message, changes)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(item.label)
    out = []
    for program, message, changes in order:
        when = "at start-up under %s; %s" % (
            ", ".join(groups[(program, message, changes)]),
            "%s makes it pass" % describe(changes) if changes is not None
            else "no change of a locale or Python variable found makes it pass")
        out.append(Tool(program, message, when))
    return tuple(out)
