"""Run cases through real interpreters in real locale worlds, and compare with decide().

One batch per world: every case x every interpreter goes to worlds.run() at once, so the
world's mounts are made once and the interpreters start in parallel. Results are kept
for the whole test session (see tests/conftest.py).
"""
import json
import os

import utf8env
from utf8env import _locales as locales
from utf8env import _probe as probe
from utf8env._engine.textnames import codec_name

from utf8env import _worlds as worlds

from support import machine

ENCODING_FIELDS = ("filesystem", "stdin", "stdout", "stderr", "open")
NAME_FIELDS = ("preferred_encoding", "locale_encoding")


def ask_libc_code():
    return locales.child_program()


def locale_facts(world, names):
    """LocaleFacts per root, asked of that root's own libc inside the world."""
    by_root = {}
    for interp in machine.interpreters():
        by_root.setdefault(interp.root, interp)
    order = list(by_root)
    jobs = [worlds.Job(by_root[root].argv + ["-I", "-S", "-c", ask_libc_code()] + list(names), {})
            for root in order]
    facts = {}
    for root, result in zip(order, worlds.run(world, jobs, roots())):
        if result.returncode != 0:
            raise RuntimeError("locale probe failed in %s/%s: %r" % (world, root, result.stderr))
        answer = json.loads(result.stdout.decode("ascii"))
        c_codeset = answer.pop("C", None)
        facts[root] = utf8env.LocaleFacts(answer, c_codeset)
    return facts


def run_world(world, cases):
    """Run every (env, options) of `cases` under every interpreter in `world`.
    Returns {(version, case index): observed}."""
    interps = machine.interpreters()
    keys, jobs = [], []
    for index, (env, options) in enumerate(cases):
        for interp in interps:
            keys.append((interp.version, index))
            jobs.append(worlds.Job(probe.command(interp.argv, options), dict(env), timeout=60))
    results = worlds.run(world, jobs, roots())
    return {key: observe(result, cases[key[1]][0]) for key, result in zip(keys, results)}


def roots():
    """The roots of the interpreters this process can start ("/" first)."""
    return sorted({i.root for i in machine.interpreters()}, key=lambda r: (r != "/", r))


def observe(result, env):
    """The corpus fields of one real run."""
    report = probe.parse(result.stdout)
    stderr = result.stderr.decode("utf-8", "surrogateescape")
    observed = {"exit_code": probe.exit_status(result.returncode),
                "stderr_messages": stderr.splitlines()}
    if report is None:
        return observed
    observed.update({
        "utf8_mode": report["utf8_mode"],
        "lc_ctype": report["lc_ctype"],
        "preferred_encoding": report["preferred_encoding"],
        "locale_encoding": report["locale_encoding"],
        "child_environ": _environ_changes(env, report["environ"]),
    })
    for field in ENCODING_FIELDS:
        observed[field] = tuple(report[field])
    return observed


def _environ_changes(env, seen):
    given = {os.fsencode(k).decode("latin-1"): os.fsencode(v).decode("latin-1")
             for k, v in env.items()}
    # A world made with LOCPATH puts its folder first in LOCPATH: the world's, not the
    # interpreter's doing (CPython never sets LOCPATH).
    locpath = seen.get("LOCPATH")
    if locpath is not None and locpath != given.get("LOCPATH"):
        rest = locpath.partition(":")[2] if ":" in locpath else None
        seen = dict(seen)
        if rest is None:
            del seen["LOCPATH"]
        else:
            seen["LOCPATH"] = rest
    changes = {k: v for k, v in seen.items() if given.get(k) != v}
    changes.update({k: None for k in given if k not in seen})
    return changes


def predicted(decision):
    """The corpus fields of a Decision, for comparison with observe()."""
    fields = {
        "exit_code": decision.startup_error.exit_code if decision.startup_error else 0,
        "stderr_messages": list(decision.stderr_messages),
    }
    if decision.startup_error:
        return fields
    fields.update({
        "utf8_mode": decision.utf8_mode,
        "lc_ctype": decision.lc_ctype,
        "preferred_encoding": decision.preferred_encoding,
        "locale_encoding": decision.locale_encoding,
        "child_environ": {os.fsencode(k).decode("latin-1"):
                          None if v is None else os.fsencode(v).decode("latin-1")
                          for k, v in decision.child_environ.items()},
    })
    for field in ENCODING_FIELDS:
        stream = getattr(decision, field)
        fields[field] = (stream.encoding, stream.errors)
    return fields


def normal(field, value):
    """Values as compared: encoding names as codecs.lookup() names them."""
    if field in ENCODING_FIELDS and value is not None:
        return (codec_name(value[0]), value[1])
    if field in NAME_FIELDS and value is not None:
        return codec_name(value)
    return value


def differences(expected, observed, complete_stderr=True):
    """[(field, expected, observed)] for every field of `expected` that disagrees."""
    out = []
    for field, want in expected.items():
        got = observed.get(field)
        if field == "stderr_messages" and not complete_stderr:
            got = got[:len(want)] if got else got
        if normal(field, want) != normal(field, got):
            out.append((field, want, got))
    return out


def decide_for(interp, world_facts, env, options):
    """decide() for a run of the Interpreter `interp` (its libc is its root's)."""
    return utf8env.decide(utf8env.Inputs(environ=dict(env), args=tuple(options),
                                         version=interp.version, locales=world_facts[interp.root],
                                         argv0=interp.argv[-1]))
