"""What a server process's name and command line say (pure): which server it is (uWSGI,
Apache, supervisor), the value of one of its options, the config file it names. Below
_servers.py (the server context and its fixes), _apache.py (Apache's config) and
_embedding.py (the Python a host embeds), which read a server's process through it.
"""

_APACHE_NAMES = ("apache2", "httpd")


def kind(process):
    name = process.name.lower()
    program = process.argv[0].rpartition("/")[2] if process.argv else ""
    if name.startswith("uwsgi") or program.startswith("uwsgi"):
        return "uwsgi"
    if name in _APACHE_NAMES or program in _APACHE_NAMES:
        return "mod_wsgi"
    if name == "supervisord" or program == "supervisord" or (
            "supervisor.supervisord" in process.argv[1:3]):
        return "supervisor"
    return None


def option(argv, short, long_):
    """The value of the last `short VALUE`, `shortVALUE`, `long_ VALUE` or `long_=VALUE`."""
    value = None
    for index, word in enumerate(argv):
        following = argv[index + 1] if index + 1 < len(argv) else None
        if word in (short, long_) and word:
            value = following or value
        elif long_ and word.startswith(long_ + "="):
            value = word[len(long_) + 1:]
        elif short and len(short) == 2 and word.startswith(short) and len(word) > 2 \
                and not word.startswith("--"):
            value = word[2:]
    return value


def config(kind, argv):
    """The config file the server's command line names (None: it names none here)."""
    argv = list(argv[1:])
    if kind == "uwsgi":
        # uwsgi --ini FILE (Debian's service passes several: the app's is the last), or
        # the ini file as its only argument ("uwsgi app.ini").
        value = option(argv, None, "--ini")
        if value is None:
            bare = [w for w in argv if w.endswith(".ini") and not w.startswith("-")]
            value = bare[-1] if bare else None
        return value
    if kind == "mod_wsgi":
        return option(argv, "-f", None)            # httpd -f FILE
    if kind == "supervisor":
        return option(argv, "-c", "--configuration")
    return None
