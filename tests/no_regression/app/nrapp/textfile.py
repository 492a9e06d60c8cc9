# open() of a UTF-8 text file, no encoding given: the locale (or UTF-8 mode) decides.
def main():
    with open("text.txt") as f:
        print(ascii(f.read()))


if __name__ == "__main__":
    main()
