# A child of the program: the same interpreter, started with the environment it inherits.
import subprocess
import sys

CHILD = "import sys; print('grandchild', sys.argv[1:], ascii(sys.argv[1]))"


def main():
    sys.stdout.flush()
    code = subprocess.call([sys.executable, "-c", CHILD, "caf\u00e9"])
    print("parent: status", code)


if __name__ == "__main__":
    main()
