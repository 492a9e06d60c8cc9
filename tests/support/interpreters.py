"""Re-export: interpreter discovery moved into the package (utf8env.interpreters), since
the matrix runs the real interpreters. This name is the very same module object."""
import sys

from utf8env import interpreters as _interpreters
from utf8env.interpreters import *  # noqa: F401,F403

sys.modules[__name__] = _interpreters
