"""The real ssh place, measured: what locale variables a session gets.

The facts doctor's ssh fixes rest on, each measured in a real place of its kind: Debian's
sshd on 127.0.0.1 with `UsePAM yes` and the system's own /etc/pam.d/sshd (pam_env reads
/etc/default/locale; a test's file is bound over it inside the server's mount namespace
only), a client that reads the SYSTEM /etc/ssh/ssh_config (`Host *` / `SendEnv LANG
LC_*`) and a ~/.ssh/config the test writes (both in the client's own mount namespace, no
-F), and Debian's stock /etc/skel/.bashrc and .profile in the session home (a tmpfs).
tests/support/sshd.py says how. The session's environment is read whole (`env -0`).

What is measured (each a test below):
  a. user `SendEnv -LC_CTYPE` does not stop LC_CTYPE: the system file, read after it,
     adds `LC_*` back.
  b. user `SetEnv LC_CTYPE=C.UTF-8` wins over the LC_CTYPE=UTF-8 that SendEnv sends.
  c. user `SetEnv LC_ALL=` gives the session LC_ALL empty, and glibc and Python then use
     LANG.
  d. PAM's /etc/default/locale overrides the LANG the client sends; an empty one leaves
     the client's.
  e. AcceptEnv LANG only + /etc/default/locale LC_CTYPE=C.UTF-8: the session has
     LC_CTYPE=C.UTF-8 and nothing else (and PAM's value wins even where LC_* is
     accepted).
  f. which of ~/.bashrc (appended, or as its first line) and ~/.profile reaches which
     kind of session.
"""
import os
import re
import shlex
import sys

import pytest

from support import sshd

LOCALE_NAME = re.compile(r"\A(LANG|LANGUAGE|LC_[A-Z_]+)\Z")
SEND_ENV = re.compile(r"^\s*SendEnv\s+LANG\s+LC_\*\s*$", re.M)
SKEL = "/etc/skel"
EXPORT = "export LANG=C.UTF-8\n"


def _need_place():
    ok, why = sshd.pam_available()
    if not ok:
        pytest.skip(why)
    try:
        with open(sshd.SSH_CONFIG) as f:
            system = f.read()
    except OSError:
        system = ""
    if not SEND_ENV.search(system):
        pytest.skip("%s has no `SendEnv LANG LC_*` (Debian's openssh-client has it under "
                    "Host *): not the place these facts are about" % sshd.SSH_CONFIG)


def _skel(name):
    path = os.path.join(SKEL, name)
    if not os.path.isfile(path):
        pytest.skip("no %s (Debian's bash package installs it)" % path)
    with open(path) as f:
        return f.read()


def _running(folder, **options):
    _need_place()
    server = sshd.Server(folder, use_pam=True, default_locale="", **options)
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="module")
def pam_server(tmp_path_factory):
    """AcceptEnv LANG LC_* (Debian's stock sshd_config), UsePAM yes."""
    yield from _running(tmp_path_factory.mktemp("sshd-pam"))


@pytest.fixture(scope="module")
def lang_only_pam_server(tmp_path_factory):
    """AcceptEnv LANG only, UsePAM yes."""
    yield from _running(tmp_path_factory.mktemp("sshd-pam-lang"), accept_env="LANG")


def _client(**more):
    """The ssh client's whole environment: no locale variable unless given."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    env.update(more)
    return env


def _run(server, command, client, user_config=""):
    code, out, err = server.ssh_as_user(command, client, user_config)
    assert (code, err) == (0, b""), (code, err, server.read_log())
    return out.decode("utf-8")


def _locale_vars(server, client, user_config=""):
    """The session's locale variables, whole values ({} if none)."""
    out = _run(server, "env -0", client, user_config)
    environ = dict(item.split("=", 1) for item in out.split("\0") if item)
    assert environ["SSH_CLIENT"].startswith("127.0.0.1 ")     # a real ssh session
    return {name: value for name, value in environ.items() if LOCALE_NAME.match(name)}


# What glibc and this Python make of the session's locale: setlocale(LC_CTYPE, "") and
# whether UTF-8 mode came on (PEP 540: for a C/POSIX LC_CTYPE at startup).
PYTHON = ("import locale, sys; print(locale.setlocale(locale.LC_CTYPE, ''), "
          "sys.flags.utf8_mode, sys.getfilesystemencoding())")


def _python(server, client, user_config=""):
    command = "%s -I -c %s" % (shlex.quote(sys.executable), shlex.quote(PYTHON))
    return _run(server, command, client, user_config)


# --- a, b, c: the client's ssh_config -------------------------------------------------

def test_the_system_ssh_config_sends_lc_ctype(pam_server):
    """The control: no user config, no -o: LC_CTYPE=UTF-8 arrives, sent by the system
    file's SendEnv LANG LC_* alone."""
    pam_server.set_default_locale("")
    assert _locale_vars(pam_server, _client(LC_CTYPE="UTF-8")) == {"LC_CTYPE": "UTF-8"}


def test_a_user_sendenv_minus_does_not_stop_lc_ctype(pam_server):
    """ssh reads ~/.ssh/config before /etc/ssh/ssh_config: `SendEnv -LC_CTYPE` removes a
    pattern from a list still empty, and the system file then adds LANG LC_*."""
    pam_server.set_default_locale("")
    config = "Host *\n    SendEnv -LC_CTYPE\n"
    assert _locale_vars(pam_server, _client(LC_CTYPE="UTF-8"), config) == {"LC_CTYPE": "UTF-8"}


def test_b_user_setenv_wins_over_the_sent_lc_ctype(pam_server):
    """SendEnv still sends LC_CTYPE=UTF-8; SetEnv LC_CTYPE=C.UTF-8 is sent after it, and
    the session gets SetEnv's value."""
    pam_server.set_default_locale("")
    config = "Host *\n    SetEnv LC_CTYPE=C.UTF-8\n"
    assert _locale_vars(pam_server, _client(LC_CTYPE="UTF-8"), config) == {"LC_CTYPE": "C.UTF-8"}


C_UTF8_LOCALE = "\n".join(
    ["LANG=C.UTF-8", "LANGUAGE="]
    + ['%s="C.UTF-8"' % name for name in (
        "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES",
        "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT",
        "LC_IDENTIFICATION")]
    + ["LC_ALL="]) + "\n"


def test_c_control_lc_all_c_arrives(pam_server):
    """Without the fix the client's LC_ALL=C arrives and beats LANG."""
    pam_server.set_default_locale("")
    client = _client(LANG="C.UTF-8", LC_ALL="C")
    assert _locale_vars(pam_server, client) == {"LANG": "C.UTF-8", "LC_ALL": "C"}
    assert _python(pam_server, client) == "C 1 utf-8\n"


def test_c_user_setenv_empty_lc_all_lets_lang_rule(pam_server):
    """`SetEnv LC_ALL=` arrives as LC_ALL set and empty (after SendEnv's LC_ALL=C), and an
    empty LC_ALL counts as unset: `locale` and Python take LANG."""
    pam_server.set_default_locale("")
    client = _client(LANG="C.UTF-8", LC_ALL="C")
    config = "Host *\n    SetEnv LC_ALL=\n"
    assert _locale_vars(pam_server, client, config) == {"LANG": "C.UTF-8", "LC_ALL": ""}
    assert _run(pam_server, "locale", client, config) == C_UTF8_LOCALE
    assert _python(pam_server, client, config) == "C.UTF-8 0 utf-8\n"


# --- d, e: PAM's /etc/default/locale --------------------------------------------------

def test_d_pam_default_locale_overrides_the_clients_lang(pam_server):
    pam_server.set_default_locale("LANG=C.UTF-8\n")
    assert _locale_vars(pam_server, _client(LANG="de_DE.UTF-8")) == {"LANG": "C.UTF-8"}


def test_d_an_empty_default_locale_leaves_the_clients_lang(pam_server):
    pam_server.set_default_locale("")
    assert _locale_vars(pam_server, _client(LANG="de_DE.UTF-8")) == {"LANG": "de_DE.UTF-8"}


def test_e_accept_lang_only_and_default_locale_lc_ctype(lang_only_pam_server):
    """doctor's two server fixes together: the client's LC_CTYPE is refused, PAM's is set."""
    lang_only_pam_server.set_default_locale("LC_CTYPE=C.UTF-8\n")
    client = _client(LC_CTYPE="UTF-8")
    assert _locale_vars(lang_only_pam_server, client) == {"LC_CTYPE": "C.UTF-8"}
    assert _run(lang_only_pam_server, "locale charmap", client) == "UTF-8\n"


def test_e_default_locale_lc_ctype_alone_beats_the_clients(pam_server):
    """/etc/default/locale's LC_CTYPE wins even where AcceptEnv lets LC_* in."""
    pam_server.set_default_locale("LC_CTYPE=C.UTF-8\n")
    assert _locale_vars(pam_server, _client(LC_CTYPE="UTF-8")) == {"LC_CTYPE": "C.UTF-8"}


# --- f: Debian's stock shell rc files -------------------------------------------------

# The kinds of session: `ssh host CMD` (bash -c CMD, non-interactive, not login: Debian's
# bash reads ~/.bashrc when sshd starts it), `ssh -tt host` (the interactive login shell,
# its commands typed on the terminal), `ssh host 'bash -l -c CMD'` (a non-interactive login
# shell inside the first kind).
ECHO = 'echo "[LANG=${LANG-unset}]"'
TYPED = b'echo "[""LANG=${LANG-unset}""]"; exit\n'     # its echo on the tty never matches
SEEN = re.compile(r"\[LANG=([^\]\r\n]*)\]")

PLACEMENTS = {
    "bashrc-appended": lambda rc, profile: {".bashrc": rc + EXPORT, ".profile": profile},
    "bashrc-first-line": lambda rc, profile: {".bashrc": EXPORT + rc, ".profile": profile},
    "profile-appended": lambda rc, profile: {".bashrc": rc, ".profile": profile + EXPORT},
}

# (placement, session) -> the LANG the session sees ("unset": none).
REACHES = {
    ("bashrc-appended", "command"): "unset",        # after the non-interactive guard
    ("bashrc-appended", "interactive-login"): "C.UTF-8",
    ("bashrc-appended", "bash-l-c"): "unset",
    ("bashrc-first-line", "command"): "C.UTF-8",    # before the guard: every ssh command
    ("bashrc-first-line", "interactive-login"): "C.UTF-8",
    ("bashrc-first-line", "bash-l-c"): "C.UTF-8",
    ("profile-appended", "command"): "unset",       # a command's shell is not a login shell
    ("profile-appended", "interactive-login"): "C.UTF-8",
    ("profile-appended", "bash-l-c"): "C.UTF-8",
}


def _seen(server, session):
    client = _client()      # sends no locale variable; PAM's file is empty
    if session == "interactive-login":
        code, out, err = server.ssh_as_user(None, client, options=("-tt", "-q"), input=TYPED)
    else:
        command = ECHO if session == "command" else "bash -l -c %s" % shlex.quote(ECHO)
        code, out, err = server.ssh_as_user(command, client)
    assert (code, err) == (0, b""), (code, err)
    return SEEN.findall(out.decode("utf-8"))


@pytest.mark.parametrize("placement,session", sorted(REACHES))
def test_f_which_rc_file_reaches_which_session(pam_server, placement, session):
    rc, profile = _skel(".bashrc"), _skel(".profile")
    assert "If not running interactively, don't do anything" in rc
    pam_server.set_default_locale("")
    pam_server.put_home_files(PLACEMENTS[placement](rc, profile))
    try:
        assert _seen(pam_server, session) == [REACHES[placement, session]]
    finally:
        pam_server.put_home_files({".bashrc": None, ".profile": None})
