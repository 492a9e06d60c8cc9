"""Jobs run side by side in threads, each one's result or the error it ended with kept for
the test that asks for it: one install of a module fixture's many that fails fails its
own test, not the others'."""
from concurrent.futures import ThreadPoolExecutor


def outcomes(jobs, workers=4):
    """{key: (function, arguments...)} -> {key: what the call returned, or the Exception
    it raised}, all calls ended."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {key: pool.submit(*job) for key, job in jobs.items()}
    return {key: _outcome(future) for key, future in futures.items()}


def _outcome(future):
    try:
        return future.result()
    except Exception as error:      # reported by the test that asks for it
        return error
