"""decide() in every codeset glibc lists, for every version 3.6-3.15 (issue 21), from the
engine alone. Pure: nothing is run. The expectations are what the real interpreters did
(tests/test_codesets_groundtruth.py runs them): MEASURED holds what each version reported
with LC_ALL set to a locale of each codeset, written down once; the other tests state
the measured interplay of UTF-8 mode, coercion, PYTHONIOENCODING and site cell by cell."""
import json
import os

import pytest

from utf8env._engine import codecs_by_version, locale_model, policy
from utf8env._engine.codecs_by_version import PATH_CONFIGURATION
from utf8env._engine.policy import Inputs, LocaleFacts, decide
from utf8env._engine.profiles import VERSIONS

pytestmark = pytest.mark.fast

# sys.getfilesystemencoding() with LC_ALL naming a locale of the codeset (one of
# /usr/share/i18n/SUPPORTED, compiled with localedef, LOCPATH), UTF-8 mode off, as
# 3.6-3.14 reported it; None: the interpreter refused to start. Measured with pyenv's
# 3.6.15-3.13.0 (glibc 2.36) and Debian's 3.14.10 and 3.15.2 (-X utf8=0, glibc 2.43).
_SAME = {
    "BIG5": "big5", "BIG5-HKSCS": "big5hkscs", "CP1251": "cp1251", "CP1255": "cp1255",
    "EUC-JP": "euc_jp", "EUC-KR": "euc_kr", "GB18030": "gb18030", "GB2312": "gb2312",
    "GBK": "gbk", "ISO-8859-1": "iso8859-1", "ISO-8859-10": "iso8859-10",
    "ISO-8859-13": "iso8859-13", "ISO-8859-14": "iso8859-14", "ISO-8859-15": "iso8859-15",
    "ISO-8859-2": "iso8859-2", "ISO-8859-3": "iso8859-3", "ISO-8859-5": "iso8859-5",
    "ISO-8859-6": "iso8859-6", "ISO-8859-7": "iso8859-7", "ISO-8859-8": "iso8859-8",
    "ISO-8859-9": "iso8859-9", "KOI8-R": "koi8-r", "KOI8-T": "koi8-t", "KOI8-U": "koi8-u",
    "PT154": "ptcp154", "RK1048": "kz1048", "TIS-620": "tis-620", "UTF-8": "utf-8",
    "ARMSCII-8": None, "GEORGIAN-PS": None, "EUC-TW": None,
}
MEASURED = {(codeset, v): fs for codeset, fs in _SAME.items() for v in VERSIONS}
MEASURED.update({("WINDOWS-31J", v): None if v in VERSIONS[:7] else "cp932" for v in VERSIONS})
NAME = "xx_XX.CODESET"


def _decide(environ, version, codeset=None, args=(), **more):
    facts = LocaleFacts({NAME: codeset} if codeset else {})
    return decide(Inputs(environ=dict(environ), args=tuple(args), version=version,
                         locales=facts, **more))


def _fatal(version, codeset):
    """The lines printed before the traceback, and the status, measured."""
    lookup = "LookupError: unknown encoding: " + codeset
    if version == "3.6":
        return ["Fatal Python error: Py_Initialize: Unable to get the locale encoding", lookup], 134
    if version == "3.7":
        return ["Fatal Python error: initfsencoding: Unable to get the locale encoding", lookup], 134
    return list(PATH_CONFIGURATION) + [
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the "
        "filesystem encoding", "Python runtime state: core initialized", lookup], 1


def test_the_table_holds_every_codeset_glibc_lists():
    listed = set(codeset for codeset, _ in MEASURED)
    assert listed | {"ANSI_X3.4-1968"} == set(codecs_by_version.GLIBC_CODESETS)
    supported = "/usr/share/i18n/SUPPORTED"
    if os.path.exists(supported):       # this machine's glibc lists nothing the table lacks
        with open(supported) as f:
            here = set(line.split()[1] for line in f if line.strip() and not line.startswith("#"))
        assert here - listed == set()


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("codeset", sorted(_SAME) + ["WINDOWS-31J"])
def test_every_codeset_starts_or_fails_as_measured(codeset, version):
    d = _decide({"LC_ALL": NAME}, version, codeset, ("-X", "utf8=0"))
    fs = MEASURED[(codeset, version)]
    if fs is None:
        lines, status = _fatal(version, codeset)
        assert (d.startup_error.exit_code, list(d.stderr_messages)) == (status, lines)
        assert d.startup_error.message == "\n".join(lines[2:] if status == 1 else lines)
        assert d.stderr_complete is False and d.filesystem is None
        assert "no codec for %s" % codeset in d.reasons["startup_error"].detail
        return
    assert d.startup_error is None and d.filesystem.encoding == fs
    # stdio: 3.8+ report the codec's name, 3.6/3.7 nl_langinfo's; the locale's own
    # functions always nl_langinfo's.
    assert d.stdout.encoding == (codeset if version in ("3.6", "3.7") else fs)
    assert d.preferred_encoding == codeset
    assert d.locale_encoding == (codeset if version not in VERSIONS[:5] else None)


@pytest.mark.parametrize("version", VERSIONS)
def test_utf8_mode_avoids_the_failure_except_where_measured(version):
    # PYTHONUTF8=1 in ARMSCII-8: 3.6 has no UTF-8 mode; 3.11 and 3.12 read site-packages'
    # .pth files with the locale encoding (site.py: encoding="locale") and stop there.
    d = _decide({"LC_ALL": NAME, "PYTHONUTF8": "1"}, version, "ARMSCII-8")
    if version == "3.6":
        assert d.startup_error.exit_code == 134
    elif version in ("3.11", "3.12"):
        assert d.startup_error.exit_code == 1
        assert list(d.stderr_messages) == [
            "Fatal Python error: init_import_site: Failed to import the site module",
            "Python runtime state: initialized", "Traceback (most recent call last):"]
        assert d.reasons["startup_error"].source == "site"
        assert "assumed: a .pth file is there" in d.reasons["startup_error"].detail
        for started in (_decide({"LC_ALL": NAME, "PYTHONUTF8": "1"}, version, "ARMSCII-8",
                                pth_files=False),
                        _decide({"LC_ALL": NAME, "PYTHONUTF8": "1"}, version, "ARMSCII-8", ("-S",))):
            assert started.startup_error is None and started.filesystem.encoding == "utf-8"
    else:
        assert d.startup_error is None
        assert (d.filesystem, d.stdout) == (policy.Stream("utf-8", "surrogateescape"),) * 2
        # locale.getencoding() (3.11+) ignores UTF-8 mode.
        assert d.locale_encoding == ("ARMSCII-8" if version in ("3.13", "3.14", "3.15") else None)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("options,extra", [(("-E",), {"PYTHONUTF8": "1"}),
                                           (("-I",), {"PYTHONUTF8": "1"}),
                                           ((), {"PYTHONIOENCODING": "utf-8"}),
                                           ((), {"PYTHONIOENCODING": "bogus_codec"}),
                                           ((), {"PYTHONCOERCECLOCALE": "warn"})])
def test_what_does_not_avoid_it(version, options, extra):
    # -E/-I hide PYTHONUTF8; PYTHONIOENCODING sets only stdio, and the filesystem codec is
    # looked up first; the locale is not C, so there is nothing to coerce. 3.15 starts:
    # UTF-8 mode is on by default (PEP 686), with -E and -I too.
    d = _decide(dict({"LC_ALL": NAME}, **extra), version, "GEORGIAN-PS", options)
    if version == "3.15" and "bogus_codec" in extra.values():
        assert d.reasons["startup_error"].source == "PYTHONIOENCODING"     # stdio's own failure
    elif version == "3.15":
        assert d.startup_error is None and d.utf8_mode == 1
    else:
        lines, status = _fatal(version, "GEORGIAN-PS")
        assert (d.startup_error.exit_code, list(d.stderr_messages)) == (status, lines)


@pytest.mark.parametrize("version", VERSIONS)
def test_coercion_and_the_c_locale_avoid_it(version):
    for environ in ({"LC_CTYPE": "C", "LANG": NAME}, {"LC_ALL": "C", "LANG": NAME},
                    {"LC_CTYPE": "C", "LANG": NAME, "PYTHONCOERCECLOCALE": "0"}):
        d = _decide(environ, version, "EUC-TW")
        assert d.startup_error is None
        assert d.filesystem.encoding == ("ascii" if version == "3.6" else "utf-8")


_STDIO_FATAL = {
    "3.6": (["Fatal Python error: Py_Initialize: can't initialize sys standard streams"], 134),
    "3.7": (["Fatal Python error: init_sys_streams: can't initialize sys standard streams"], 134),
}


@pytest.mark.parametrize("version", VERSIONS)
def test_pythonioencoding_names_a_codec_by_version(version):
    # The codeset as PYTHONIOENCODING in the C locale (UTF-8 mode on 3.7+): WINDOWS-31J is
    # cp932 from 3.13 on, reported so by 3.8+; 3.6/3.7 keep the name as given.
    d = _decide({"LC_ALL": "C", "PYTHONIOENCODING": "WINDOWS-31J"}, version)
    if version in VERSIONS[:7]:
        head, status = _STDIO_FATAL.get(version, (
            ["Fatal Python error: init_stdio_encoding: failed to get the Python codec name "
             "of the stdio encoding", "Python runtime state: core initialized"], 1))
        assert d.startup_error.exit_code == status
        assert list(d.stderr_messages) == head + ["LookupError: unknown encoding: WINDOWS-31J"]
    else:
        assert d.stdout == policy.Stream("cp932", "strict")
    assert _decide({"LC_ALL": "C", "PYTHONIOENCODING": "RK1048"}, version).stdout.encoding == (
        "RK1048" if version in ("3.6", "3.7") else "kz1048")


@pytest.mark.parametrize("name,first,codec", [
    ("cp65001", "3.8", "utf-8"), ("windows-31j", "3.13", "cp932"), ("cp00858", "3.14", "cp858"),
    ("csUTF8", "3.15", "utf-8")])
def test_aliases_by_version(name, first, codec):
    for version in VERSIONS:
        d = _decide({"LC_ALL": NAME, "PYTHONIOENCODING": name}, version, "UTF-8")
        if VERSIONS.index(version) < VERSIONS.index(first):
            assert d.startup_error is not None, version
        else:
            assert d.stdout.encoding == (name if version in ("3.6", "3.7") else codec)
    # Names that changed codec: korean is cp949 in 3.15; unicode_internal left in 3.8.
    names = [_decide({"LC_ALL": NAME, "PYTHONIOENCODING": "korean"}, v, "UTF-8").stdout.encoding
             for v in ("3.14", "3.15")]
    assert names == ["euc_kr", "cp949"]
    gone = [_decide({"LC_ALL": NAME, "PYTHONIOENCODING": "unicode_internal"}, v, "UTF-8")
            for v in ("3.7", "3.8")]
    assert (gone[0].startup_error, gone[1].startup_error is not None) == (None, True)


def test_the_running_pythons_codecs_do_not_decide(monkeypatch):
    # A host that knows no codec at all, or one more (its own cp932 under the 3.13 name),
    # predicts the same for every glibc codeset.
    from utf8env._engine import textnames

    def expected():
        return [(c, v, _decide({"LC_ALL": NAME}, v, c, ("-X", "utf8=0")))
                for c in sorted(codecs_by_version.GLIBC_CODESETS) for v in VERSIONS]
    before = expected()
    monkeypatch.setattr(textnames, "lookup", lambda name: None)
    assert expected() == before
    import codecs
    cp932 = codecs.lookup("cp932")
    monkeypatch.setattr(textnames, "lookup", lambda name: cp932)
    assert expected() == before


def test_the_versions_are_said_in_the_reason():
    d = _decide({"LC_ALL": NAME}, "3.12", "WINDOWS-31J")
    assert d.reasons["startup_error"].detail.startswith(
        "CPython 3.12 has no codec for WINDOWS-31J (cp932 in 3.13-3.15), the codeset of "
        "LC_CTYPE xx_XX.CODESET")
    d = _decide({"LC_ALL": NAME}, "3.9", "ARMSCII-8")
    assert "(none in 3.6-3.15)" in d.reasons["startup_error"].detail


def test_explain_json_and_text(capsys):
    from utf8env import _cli as cli
    args = ["explain", "--empty-env", "--env", "LANG=hy_AM.ARMSCII-8", "--locales",
            "hy_AM.ARMSCII-8", "--version", "3.9"]
    assert cli.main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    lines, status = _fatal("3.9", "ARMSCII-8")
    assert data["startup_error"] == {"message": "\n".join(lines[2:]), "exit_code": status}
    assert (data["stderr_messages"], data["stderr_complete"]) == (lines, False)
    assert data["filesystem"] is None and "filesystem" not in data["reasons"]
    assert cli.main(args) == 0
    text = capsys.readouterr().out
    assert [line.split()[1:4] for line in text.splitlines() if line.startswith("start-up")] == [
        ["fails,", "exit", "1"]]
    assert "  LookupError: unknown encoding: ARMSCII-8\n  (followed by a traceback)" in text


@pytest.mark.parametrize("name,codeset", [
    ("hy_AM.ARMSCII-8", "ARMSCII-8"), ("hy_AM.armscii8", "ARMSCII-8"),
    ("ka_GE.georgianps", "GEORGIAN-PS"), ("zh_TW.euctw", "EUC-TW"),
    ("ja_JP.windows31j", "WINDOWS-31J"), ("kk_KZ.rk1048", "RK1048"), ("th_TH.tis620", "TIS-620"),
    ("en_US.iso885915", "ISO-8859-15"), ("de_DE.utf8", "UTF-8")])
def test_locales_option_spells_codesets_as_glibc(name, codeset):
    assert locale_model.modelled(name).codesets == {name: codeset}
