# Prints non-ASCII text (PEP 538's example): the locale's codec decides.
def main():
    print("\u2119\u01b4\u2602\u210c\u00f8\u1f24")


if __name__ == "__main__":
    main()
