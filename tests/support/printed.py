"""What doctor must print, where more than one test file checks it in its real place."""

LOCALE_GEN = "/etc/locale.gen"


def install_option(name, number):
    """The install option of locale `name` (Debian 12, de_DE.UTF-8 here), as doctor must
    print it: a commented line in /etc/locale.gen is uncommented, else the line is added."""
    assert name == "de_DE.UTF-8"
    line = "de_DE.UTF-8 UTF-8"
    try:
        with open(LOCALE_GEN) as f:
            present = "# de_DE.UTF-8 UTF-8" in f.read().splitlines()
    except OSError:
        present = False
    edit = ("sed -i 's/^# *de_DE\\.UTF-8 UTF-8$/de_DE.UTF-8 UTF-8/' /etc/locale.gen" if present
            else "echo '%s' >> /etc/locale.gen" % line)
    return {"option": number, "where": "as root, install %s on this system (debian)" % name,
            "context": "install",
            "lines": ["apt-get update", "apt-get install -y locales", edit, "locale-gen"]}
