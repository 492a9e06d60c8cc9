"""`utf8env run` and `utf8env env`: find and identify the command, plan what it gets
(pure), exec it; the 3.6 bootstrap's parent side."""
