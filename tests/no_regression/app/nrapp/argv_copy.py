# shutil.copy(sys.argv[1], sys.argv[2]) with non-ASCII names, then the copy's bytes.
import shutil
import sys


def main():
    shutil.copy(sys.argv[1], sys.argv[2])
    with open(sys.argv[2], "rb") as f:
        sys.stdout.buffer.write(f.read())


if __name__ == "__main__":
    main()
