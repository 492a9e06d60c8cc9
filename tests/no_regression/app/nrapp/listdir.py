# PEP 540 "List a directory into stdout": undecodable names must come back byte for byte.
import os


def main():
    for name in sorted(os.listdir(".")):
        print(name)


if __name__ == "__main__":
    main()
