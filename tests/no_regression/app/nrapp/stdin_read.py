# Reads undecodable stdin as text, says what it decoded, and writes it back.
import sys


def main():
    data = sys.stdin.read()
    print(len(data), ascii(data))
    sys.stdout.write(data)


if __name__ == "__main__":
    main()
