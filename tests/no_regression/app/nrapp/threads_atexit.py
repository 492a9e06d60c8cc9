# A thread and an atexit handler that use the __main__ module's globals after its top
# level has ended (the thread waits for the main thread to finish).
import atexit
import sys
import threading

GREETING = "hello from __main__"


def helper():
    return GREETING.upper()


def later():
    threading.main_thread().join()
    sys.stdout.write("thread: %s %s\n" % (GREETING, helper()))
    sys.stdout.flush()


def at_exit():
    sys.stdout.write("atexit: %s %s %s\n" % (GREETING, helper(),
                                             sys.modules["__main__"].__dict__.get("GREETING")))


def main():
    atexit.register(at_exit)
    threading.Thread(target=later).start()
    print("main: done")


if __name__ == "__main__":
    main()
