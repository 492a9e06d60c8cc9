# open(sys.argv[1]) with a non-ASCII file name: argv and the filesystem encoding must agree.
import sys


def main():
    for name in sys.argv[1:]:
        with open(name) as f:
            sys.stdout.write(f.read())


if __name__ == "__main__":
    main()
