"""A command run with stderr a terminal (a pseudo-terminal): what progress lines draw."""
import os
import pty
import subprocess


def stderr_on_terminal(argv, cwd):
    """(status, stdout, the bytes the terminal received) of `argv` with stderr a terminal
    and stdout a pipe. The terminal's line discipline makes a newline CR LF."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        slave = None
        out = proc.communicate(timeout=300)[0]
        seen = b""
        while True:
            try:
                block = os.read(master, 4096)
            except OSError:         # EIO: the other side is closed and all was read
                break
            if not block:
                break
            seen += block
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    return proc.returncode, out.decode("utf-8"), seen
