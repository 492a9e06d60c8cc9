"""`utf8env fix --check` of one file, and the whole output it must give."""
from utf8env._cli import main


def check_one(path, capsys):
    """(status, stdout, stderr) of `utf8env fix --check PATH`, in this process."""
    status = main(["fix", "--check", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def listing(path, sites):
    """(status, stdout, stderr) that `fix --check PATH` gives for `sites` [(line, column,
    message)], all to fix, in the one file."""
    if not sites:
        return 0, "no call site opens text in the locale's encoding (1 file)\n", ""
    text = "".join("%s:%d:%d: %s\n" % (path, line, col, message) for line, col, message in sites)
    text += "%d call site%s in 1 file open text in the locale's encoding: %d to fix " \
            "(--write), 0 to review\n" % (len(sites), "" if len(sites) == 1 else "s", len(sites))
    return 1, text, ""
