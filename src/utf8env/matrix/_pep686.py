"""What Python 3.15 decides for UTF-8 mode (PEP 686) in each environment of a matrix run:
asked of the engine (utf8env._engine.policy.decide) once, when the result is built, never
re-derived, so that every format (text, Markdown, HTML, JSON) says the same and the
reports only show it."""
from .._engine.records import Record, field
from .._engine.locale_model import modelled
from .._engine import policy
from .._worlds import WORLD


class On315(Record):
    """UTF-8 mode on Python 3.15 in one environment."""
    utf8_mode = field()     # 0, 1 or "strict"
    source = field()        # what decides it: "default", "-X utf8=0", "utf8env", ...
    detail = field()        # the engine's reason, in words


def _world_locales(world):
    """What a world's libc has, for the engine's prediction (utf8env._worlds builds them):
    as installed, C.UTF-8 (both spellings), as on Debian and this project's machines."""
    names = WORLD[world].locale_names()
    return "C.UTF-8=UTF-8,C.utf8=UTF-8" if names is None else names


def _decided(world, variables, args, source=None):
    names = _world_locales(world)
    facts = modelled(names) if names else policy.LocaleFacts({})
    d = policy.decide(policy.Inputs(environ=dict(variables), args=tuple(args),
                                    version="3.15", platform="linux", locales=facts))
    reason = d.reasons["utf8_mode"]
    return On315(utf8_mode=d.utf8_mode, source=source or reason.source, detail=reason.detail)


def of_environment(env):
    """On315 of a PEP row's environment (`utf8env run --utf8` for a launcher's: the mode
    it asks for, today and on 3.15)."""
    args = tuple(env.options) + (("-X", "utf8") if env.launcher else ())
    return _decided(env.world, env.variables, args, "utf8env" if env.launcher else None)


def of_env_set(env_set):
    """On315 of a program's environment set (its UTF-8 mode as the set gives it)."""
    args = {"0": ("-X", "utf8=0"), "1": ("-X", "utf8")}.get(env_set.utf8, ())
    return _decided(env_set.world, env_set.variables, args)
