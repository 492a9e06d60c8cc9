"""What `systemd-analyze verify` says of a unit, read back: its debug dump's "Command Line:"
as the argv systemd will run (before exec's $$ -> $)."""


def command_line_words(line):
    """The argv in a dump's "Command Line:" (systemd's quote_command_line: words quoted
    with "" where needed, \\ before \\ " ` $, C escapes and \\ooo octal for other bytes)."""
    words, i = [], 0
    while i < len(line):
        if line[i:i + 1] == b" ":
            i += 1
            continue
        word = bytearray()
        if line[i:i + 1] == b'"':
            i += 1
            while line[i:i + 1] != b'"':
                if line[i:i + 1] == b"\\":
                    nxt = line[i + 1:i + 2]
                    if nxt in (b"\\", b'"', b"`", b"$"):
                        word += nxt
                        i += 2
                    elif nxt in b"ntrabfv" and nxt:
                        word += {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"a": b"\a", b"b": b"\b",
                                 b"f": b"\f", b"v": b"\v"}[nxt]
                        i += 2
                    else:
                        word.append(int(line[i + 1:i + 4], 8))
                        i += 4
                else:
                    word += line[i:i + 1]
                    i += 1
            i += 1
        else:
            while i < len(line) and line[i:i + 1] != b" ":
                word += line[i:i + 1]
                i += 1
        words.append(bytes(word))
    return words
