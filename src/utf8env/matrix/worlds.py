"""Moved: the locale worlds are utf8env._worlds (shared with readiness). These names stay
here for the code that still imports them from the matrix."""
from .._worlds import (WORLDS, Job, Result, Run, WorldError, added_environ, available, prepare,
                       run, run_batches, world_dir)
from .._worlds.jobs import _RUNNER

__all__ = ["WORLDS", "Job", "Result", "Run", "WorldError", "added_environ", "available",
           "prepare", "run", "run_batches", "world_dir", "_RUNNER"]
