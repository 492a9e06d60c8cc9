"""Pipes for a Windows program under Wine: `PYTHON -I pipe.py -- COMMAND...` runs COMMAND
with its stdout and stderr on pipes (Wine's CPython cannot start with a regular file as a
standard stream: "init_sys_streams: ... [WinError 6] Invalid handle") and copies what
they carry to this process's own stdout and stderr (readiness's supervisor gives files),
stdin passed through. Once COMMAND has ended, what is still readable is copied and the
pipes are let go: a Wine process it started may hold them open for ever. Ends with
COMMAND's status (killed by a signal: by the same signal).

STANDALONE: standard library only, no relative imports, Python 3.6 syntax.
"""
import os
import selectors
import signal
import subprocess
import sys


def pump(proc, outputs):
    sel = selectors.DefaultSelector()
    for pipe, fd in outputs:
        sel.register(pipe, selectors.EVENT_READ, fd)
    try:
        while sel.get_map():
            exited = proc.poll() is not None
            ready = sel.select(0.2 if exited else 1.0)
            if not ready and exited:
                break
            for key, _ in ready:
                block = os.read(key.fileobj.fileno(), 65536)
                if not block:
                    sel.unregister(key.fileobj)
                    continue
                view = memoryview(block)
                while view:
                    view = view[os.write(key.data, view):]
    finally:
        sel.close()


def main(argv):
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        sys.stderr.write("usage: pipe.py -- COMMAND...\n")
        return 2
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        sys.stderr.write("%s: %s\n" % (argv[0], error))
        return 127
    pump(proc, [(proc.stdout, 1), (proc.stderr, 2)])
    code = proc.wait()
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
