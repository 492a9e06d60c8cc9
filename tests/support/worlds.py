"""Re-export: the locale worlds moved into the package (utf8env.worlds), since the
matrix runs programs in them. This name is the very same module object, so that
monkeypatching `worlds._mounts` in a test patches what run() calls."""
import sys

from utf8env import worlds as _worlds
from utf8env.worlds import *  # noqa: F401,F403

sys.modules[__name__] = _worlds
