"""Code that runs inside *another* interpreter (a Python child, a target of the ground
truth, a matrix cell), or in this one before utf8env is importable.

Every module here is standard library only, valid Python 3.6, and imports nothing
relative: a child loads it by file path. The package itself may import them normally.
"""
