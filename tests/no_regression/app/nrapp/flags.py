# What -O and -b change: __debug__, assert, docstrings, the bytes/str comparison warning.
import sys


def documented():
    """a docstring"""


def main():
    try:
        assert False, "assert ran"
        asserted = "assert skipped"
    except AssertionError as e:
        asserted = str(e)
    print("optimize", sys.flags.optimize, "bytes_warning", sys.flags.bytes_warning,
          "no_user_site", sys.flags.no_user_site, "debug", __debug__)
    print(asserted, "doc", documented.__doc__)
    print("compare", b"x" == "x")
    print("argv", sys.argv[1:])


if __name__ == "__main__":
    main()
