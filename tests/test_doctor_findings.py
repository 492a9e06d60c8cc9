"""doctor's findings from handmade places (pure, fast): a value no fix line may carry is
refused in one evidence line and never written; where a variable came from is read from
the user's start-up files and PAM's /etc/default/locale before the ssh client is blamed;
titles and evidence fold to a terminal's width while fix lines stay whole."""
import pytest

from utf8env.doctor import _finding_records as finding_records, _locale_findings
from utf8env.doctor._fixes import Remedy, for_remedies, unsafe
from utf8env.doctor._records import Context, Fix
from utf8env.doctor._verdict import verdict_lines

pytestmark = pytest.mark.fast

INFO = {"distribution": "debian", "locale_gen": "# de_DE.UTF-8 UTF-8\n", "files": {},
        "shell": "/bin/sh", "utf8env": ("/opt/utf8env/bin/utf8env",), "use_pam": True}


@pytest.mark.parametrize("value", ["de_DE.UTF-8\nrm -rf /", "de_DE.UTF-8'; x", "caf\udcc3\udca9",
                                   "de DE"])
def test_a_value_no_line_may_carry_is_refused(value):
    remedy = Remedy(install=value)
    assert unsafe(remedy) == value
    assert for_remedies((remedy,), (), INFO) == ()
    finding = finding_records.make_finding("locale-missing", "warning", "t", ("e",),
                                (Remedy(changes=(("LANG", "C.UTF-8"),)), remedy), (), INFO)
    assert finding.evidence == ("e", "no fix is written with %r: a fix line holds only "
                                "letters, digits and _.@+-" % value)
    assert finding.fixes == (Fix("~/.profile (login shells)", ("export LANG=C.UTF-8",), "shell",
                                 1, ("end", "~/.profile"), (("LANG", "C.UTF-8"),)),)


def test_a_safe_install_is_written_for_debian():
    [fix] = for_remedies((Remedy(install="de_DE.UTF-8"),), (), INFO)
    assert fix.lines == ("apt-get update", "apt-get install -y locales",
                         "sed -i 's/^# *de_DE\\.UTF-8 UTF-8$/de_DE.UTF-8 UTF-8/' /etc/locale.gen",
                         "locale-gen")


def _ssh(environ, forwarded=("LANG",), from_pam=()):
    from utf8env.doctor._sshd import AcceptEnv
    directive = AcceptEnv(("LANG", "LC_*"), "/etc/ssh/sshd_config:12", False)
    return Context("ssh", "ssh session from 10.0.0.2", ("SSH_CONNECTION=...",), {
        "config": "/etc/ssh/sshd_config", "accept_env": (directive,),
        "forwarded": {name: directive for name in forwarded}, "client": "10.0.0.2",
        "shell": "/bin/bash", "from_pam": from_pam})


def test_a_start_up_file_is_named_before_the_ssh_client():
    files = {"~/.bashrc": "# stock\nexport LANG='de_DE.UTF-8'\n"}
    origin = _locale_findings.origin_of("LANG", "de_DE.UTF-8", (_ssh({}),), dict(INFO, files=files))
    assert origin == "(set by ~/.bashrc line 2)"


def test_pams_file_is_named_before_the_ssh_client():
    origin = _locale_findings.origin_of("LANG", "de_DE.UTF-8", (_ssh({}, from_pam=("LANG",)),), INFO)
    assert origin == ("(as /etc/default/locale sets it: sshd's PAM (pam_env) applies that file "
                      "after the variables the ssh client sent)")
    assert _locale_findings.origin_of("LANG", "de_DE.UTF-8", (_ssh({}),), INFO) == (
        "(most likely sent by the ssh client: SendEnv on the client, let in by AcceptEnv LANG "
        "LC_* at /etc/ssh/sshd_config:12)")


def test_a_pam_set_variable_gets_the_servers_file_and_bashrc_not_the_client():
    fixes = for_remedies((Remedy(changes=(("LANG", "C.UTF-8"),)),),
                         (_ssh({}, from_pam=("LANG",)),), INFO)
    assert [(f.option, f.where, f.lines) for f in fixes] == [
        (1, "as root on this server, /etc/default/locale (pam_env gives it to every ssh "
            "session, over what the client sends)", ("LANG=C.UTF-8",)),
        (2, 'on this server, the top of ~/.bashrc (above its "If not running interactively" '
            'line)', ("export LANG=C.UTF-8",))]


def test_titles_and_evidence_fold_to_the_width_and_fix_lines_do_not():
    long = ("LANG=en_US.UTF-8 names a locale this system does not have (C.UTF-8 is installed): "
            "LC_CTYPE falls back to C (ASCII)")
    fix = Fix("the Dockerfile (or docker run -e NAME=VALUE)",
              ("RUN apt-get update && apt-get install -y locales && locale-gen",), "container")
    finding = finding_records.Finding("locale-missing", "warning", long, ("perl warns " * 6,), (fix,))
    assert verdict_lines([finding], verbose=True, width=60) == [
        "1 problem", "",
        "warning LANG=en_US.UTF-8 names a locale this system does not",
        "        have (C.UTF-8 is installed): LC_CTYPE falls back to",
        "        C (ASCII)",
        "        - perl warns perl warns perl warns perl warns perl",
        "          warns perl warns",
        "        fix: the Dockerfile (or docker run -e NAME=VALUE):",
        "            RUN apt-get update && apt-get install -y locales && locale-gen"]
    assert verdict_lines([finding], verbose=False)[2] == "warning " + long

