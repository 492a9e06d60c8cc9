"""`utf8env env`: the variables the launcher would set, written for a shell, a
Dockerfile, a systemd unit or a GitHub Actions workflow, to be set once instead of
launching through utf8env each time."""
FORMATS = ("sh", "fish", "dockerfile", "systemd", "github-actions")
_COMMENT = {"sh": "#", "fish": "#", "dockerfile": "#", "systemd": "#", "github-actions": "#"}


def variables(launched, utf8=None):
    """{name: value}: the coercion's variables, and PYTHONUTF8 when UTF-8 mode is asked
    for (the variable is the one form of UTF-8 mode that children inherit: PEP 540)."""
    out = dict(launched.set_environ)
    if utf8 in ("0", "1"):
        out["PYTHONUTF8"] = utf8
    return out


def _sh_quote(value):
    import shlex
    return shlex.quote(value)


def _line(form, name, value):
    if form == "sh":
        return "export %s=%s" % (name, _sh_quote(value))
    if form == "fish":
        return "set -gx %s %s" % (name, _sh_quote(value))
    import json
    if form == "dockerfile":
        return "ENV %s=%s" % (name, json.dumps(value) if any(c in value for c in ' "\\$') else value)
    if form == "systemd":
        text = "%s=%s" % (name, value)
        return "Environment=%s" % (json.dumps(text) if any(c in text for c in ' "\\') else text)
    return "  %s: %s" % (name, json.dumps(value))


def render(form, names, launched):
    mark = _COMMENT[form]
    lines = []
    if not names:
        lines.append("%s utf8env: nothing to set: %s" % (mark, _why_nothing(launched)))
    else:
        if form == "github-actions":
            lines.append("env:")
        lines += [_line(form, name, names[name]) for name in sorted(names)]
    for note in launched.notes:
        lines.append("%s utf8env: %s" % (mark, note))
    if launched.bootstrap and launched.python == "3.6":
        lines.append("%s utf8env: Python 3.6 has no UTF-8 mode of its own: only `utf8env run` "
                     "gives it one (through a bootstrap)" % mark)
    return "\n".join(lines) + "\n"


def _why_nothing(launched):
    if launched.python and launched.python != "3.6":
        return ("Python %s coerces the C locale and picks UTF-8 mode by itself"
                % launched.python)
    return launched.why or "no coercion is needed"
