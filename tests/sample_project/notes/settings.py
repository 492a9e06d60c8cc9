import json


def write(path, settings):
    with open(path, "w") as f:
        json.dump(settings, f)


def read(path):
    with open(path) as f:
        return json.load(f)
