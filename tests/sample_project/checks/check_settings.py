from notes import settings


def test_settings_read_back(tmp_path):
    settings.write(tmp_path / "settings.json", {"name": "caf\u00e9", "size": 3})
    assert settings.read(tmp_path / "settings.json") == {"name": "caf\u00e9", "size": 3}
