# SPDX-License-Identifier: Apache-2.0
"""What torch.compile compiled while a session observed: TorchDynamo's metrics of each
compilation (when it started and ended, the function, its file and line, why its graph broke,
why it compiled again). Read when the reports are written, from Dynamo's own record: nothing is
installed in the user's process, and Dynamo is not imported when the user's code did not import
it (torch 1.13 has none)."""

import os
import re
import sys
import time

_RESUMED = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


def _first_reason(reasons):
    """Dynamo's reason in one line: its explanation, else its first line."""
    for text in sorted(reasons or ()):
        lines = [line.strip() for line in str(text).splitlines() if line.strip()]
        for line in lines:
            if line.startswith("Explanation:"):
                return line[len("Explanation:"):].strip()
        if lines:
            return lines[0]
    return ""


class CompileWatch:
    """Made when the session starts; `compilations()` lists what was compiled since, as the
    session's add_compilations takes them."""

    def __init__(self, project_root):
        self._root = os.path.abspath(project_root)
        self._since_us = time.time_ns() // 1000

    def _place(self, filename):
        if not filename:
            return ""
        path = os.path.abspath(filename)
        relative = os.path.relpath(path, self._root)
        return path if relative.startswith(os.pardir) else relative

    def compilations(self):
        """(compile id, kind, function, file, line, start ns, end ns, graph break, why it
        compiled again) for each compilation since the watch was made."""
        utils = sys.modules.get("torch._dynamo.utils")
        metrics = getattr(utils, "get_compilation_metrics", None)
        if metrics is None:
            return []
        result = []
        for m in metrics():
            start = getattr(m, "start_time_us", None)
            if not start or start < self._since_us or not m.compile_id:
                continue
            end = getattr(m, "end_time_us", None) or start + (getattr(m, "duration_us", 0) or 0)
            function, file, line, broke, again = "", "", 0, "", ""
            kind = "forward" if m.co_name else "backward"  # a lazy backward names no frame
            if m.co_name:
                function, file, line = m.co_name, self._place(m.co_filename), m.co_firstlineno
                resumed = _RESUMED.match(function)
                if resumed:
                    function = f"{resumed.group(1)}, resumed at line {resumed.group(2)}"
                broke = _first_reason(m.restart_reasons)
                again = re.sub(r"^\d+/\d+: ", "", (m.recompile_reason or "").strip())
            result.append((str(m.compile_id), kind, function, file, int(line or 0), start * 1000,
                           end * 1000, broke, again))
        return result


class CompilingUnobserved:
    """While the session lives, torch.compile's compiling is no operation of the step and no
    operation's time: Dynamo's compile callbacks (a frame compiled, a backward graph compiled
    lazily inside its node) tell the session when it begins and ends. Where the process has
    no Dynamo, or one without those callbacks, nothing is installed. `close()` removes them."""

    def __init__(self, session):
        self._undo = []
        dynamo = sys.modules.get("torch._dynamo")
        handler = getattr(dynamo, "callback_handler", None)
        if handler is None or not hasattr(handler, "register_end_callback"):
            return
        begins, ends = type(session).compilation_begins, type(session).compilation_ends

        def began(*_args):  # never a fault in the user's compilation
            try:
                begins()
            except Exception:
                pass

        def ended(*_args):
            try:
                ends()
            except Exception:
                pass

        handler.register_start_callback(began)
        handler.register_end_callback(ended)
        self._undo = [lambda: handler.remove_start_callback(began),
                      lambda: handler.remove_end_callback(ended)]

    def close(self):
        for undo in self._undo:
            try:
                undo()
            except Exception:
                pass  # torch._dynamo.reset() or the user cleared the callbacks
        self._undo = []


def compiled_a_frame():
    """Whether TorchDynamo compiled a frame in this process (read from its counters; Dynamo is
    never imported for it)."""
    utils = sys.modules.get("torch._dynamo.utils")
    counters = getattr(utils, "counters", None)
    return bool(counters and counters["frames"]["ok"])
