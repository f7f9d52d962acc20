# SPDX-License-Identifier: Apache-2.0
"""The tests' subprocesses, each with a time limit: a child that hangs fails its test with what
it printed, rather than holding the suite until CTest's limit for the whole suite (which shows
nothing of the child) or, without one, CI's."""
import os
import subprocess
import threading

# Seconds: the slowest child of the suites (a compiled step's profile on a loaded 2-core
# machine) takes about a minute; TRAINSCOPE_TEST_SUBPROCESS_LIMIT scales it for the sanitizers
# or a slower machine.
LIMIT_S = float(os.environ.get("TRAINSCOPE_TEST_SUBPROCESS_LIMIT", "300"))


def run(command, *, timeout=None, **kwargs):
    """subprocess.run, killed past its limit with an AssertionError that holds its output."""
    timeout = LIMIT_S if timeout is None else timeout
    try:
        return subprocess.run(command, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"{command!r} ran past its limit of {timeout:g} s and was killed; "
                             f"it printed:\n{_text(e.stdout)}\n{_text(e.stderr)}") from None


class Popen(subprocess.Popen):
    """subprocess.Popen killed past its limit, whatever the test waits on (wait, a pipe's
    read): the test then sees it end with SIGKILL's status and fails on it."""

    def __init__(self, command, *args, timeout=None, **kwargs):
        super().__init__(command, *args, **kwargs)
        self.limit_s = LIMIT_S if timeout is None else timeout
        self.timed_out = False
        self._watchdog = threading.Timer(self.limit_s, self._past_its_limit)
        self._watchdog.daemon = True
        self._watchdog.start()

    def _past_its_limit(self):
        if self.poll() is None:
            self.timed_out = True
            self.kill()

    def wait(self, timeout=None):
        code = super().wait(timeout)
        self._watchdog.cancel()
        if self.timed_out:
            raise AssertionError(f"{self.args!r} ran past its limit of {self.limit_s:g} s and "
                                 "was killed")
        return code


def _text(output):
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""
