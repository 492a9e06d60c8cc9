from notes import store


def test_a_note_reads_back(tmp_path):
    store.save(tmp_path / "note.txt", "caf\u00e9")
    assert store.load(tmp_path / "note.txt") == "caf\u00e9"


def test_a_plain_note_reads_back(tmp_path):
    store.save(tmp_path / "note.txt", "plain")
    assert store.load(tmp_path / "note.txt") == "plain"


def test_the_locale_counts_four_characters(tmp_path):
    store.save(tmp_path / "note.txt", "caf\u00e9")
    assert store.characters(tmp_path / "note.txt") == 4
