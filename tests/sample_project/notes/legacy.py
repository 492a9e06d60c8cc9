import os
import subprocess


def tool_output():
    """What an old tool prints in the locale's encoding (printf writes Latin-1 e-acute)."""
    return subprocess.run(["printf", "caf\\351"], stdout=subprocess.PIPE, text=True).stdout


def show_names(folder):
    for name in sorted(os.listdir(folder)):
        print(name)
