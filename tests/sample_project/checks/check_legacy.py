import os

from notes import legacy


def test_the_tool_output_is_text():
    assert legacy.tool_output() == "caf\u00e9"


def test_names_are_shown(tmp_path, capsys):
    open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.txt"), "wb").close()
    legacy.show_names(tmp_path)
    assert capsys.readouterr().out == "caf\u00e9.txt\n"
