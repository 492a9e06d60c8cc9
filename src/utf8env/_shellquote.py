"""shlex.quote() for a POSIX shell, without importing shlex (and with it re and enum, which
cost `utf8env explain` more than the rest of its start-up) for the usual word that needs
no quotes."""

# shlex's own test of a safe word: [\w@%+=:,./-] with re.ASCII.
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def quote(word):
    if word and all(letter in _SAFE for letter in word):
        return word
    import shlex
    return shlex.quote(word)
