# An uncaught exception: the traceback is the program's, frame for frame.
def fail():
    raise ValueError("boom")


def main():
    fail()


if __name__ == "__main__":
    main()
