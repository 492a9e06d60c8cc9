import subprocess


def save(path, text):
    with open(path, "w") as f:
        f.write(text)


def load(path):
    with open(path) as f:
        return f.read()


def characters(path):
    """How many characters `wc -m` counts: a C program, always in the locale's encoding."""
    out = subprocess.run(["wc", "-m", str(path)], stdout=subprocess.PIPE, text=True).stdout
    return int(out.split()[0])
