"""`utf8env doctor`: what is wrong with text in the place this process runs in, and the
exact line to change there.

Three steps, each its own module, read -> decide -> write as everywhere in utf8env:
- _place.py gathers the facts of this place (its environment, the few /etc and /proc
  files that say where it is, the real libc's answer about the locale names in play, the
  Pythons it can find and their identities); the only impure part;
- _contexts.py, _locale_state.py, _pythons.py (its predict half) and the findings decide,
  from those facts alone, where this is, what LC_CTYPE becomes, what each Python does
  (every prediction comes from utf8env._engine.policy.decide: no rule is re-derived here) and
  what is wrong: _diagnose.py for a whole place, _findings.py (each Python's findings,
  explain's one Decision, and the findings put together) over _locale_findings.py (the
  locale's findings, and where a variable came from, in words) and _finding_records.py
  (the Finding, Predicted and Diagnosis records); _fixes.py writes the fix for the
  context found; _sessions.py and
  _servers.py detect their kinds of place and write their fixes, for _contexts.py and
  _fixes.py, which import them (never the reverse); _embedding.py (read by _place.py,
  predicted by _diagnose.py) says what the Python a uWSGI or mod_wsgi host embeds gets,
  with Apache's WSGIDaemonProcess lines that _apache.py reads; those three read a server
  process's name and command line through _server_command.py; _records.py, below them all, holds
  what they share (the Context, Fix and Tool records, NAME=VALUE files, a shell's
  start-up file);
- _verdict.py writes the verdict and the findings; _render.py and _snapshot.py the rest of
  the text, the JSON ("schema": 1) and the snapshots that `--save` and `--compare`
  exchange.

`utf8env explain` ends with the verdict of findings.for_decision(): the same findings
module, without a place and without a context (explain describes an environment), asked
by explain's command (utf8env/_commands.py: explain imports nothing of doctor). That
imports findings, finding_records, locale_findings, python_findings, origin, fixes,
records, locale_state, outcome and verdict, nothing else of doctor (not diagnose:
tests/test_explain_imports.py): every module is paid for at its start-up.
"""
