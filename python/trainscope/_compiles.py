# SPDX-License-Identifier: Apache-2.0
"""What torch.compile compiles while a session observes: TorchDynamo's compilation callbacks
(when each compilation starts and ends, by compile id) and its metrics of each compilation (the
function, its file and line, why its graph broke, why it compiled again). Nothing is watched on
a torch without torch.compile (1.13)."""

import os
import re
import time

_RESUMED = re.compile(r"^torch_dynamo_resume_in_(.+)_at_(\d+)$")


def _dynamo():
    try:
        from torch._dynamo.callback import callback_handler
        from torch._dynamo.utils import get_compilation_metrics
    except Exception:  # no torch.compile here, or another shape of it
        return None, None
    return callback_handler, get_compilation_metrics


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
    """Started with the session; `compilations()` lists what was compiled since, as the
    session's add_compilations takes them; `stop()` removes the callbacks."""

    def __init__(self, project_root):
        self._root = os.path.abspath(project_root)
        self._open, self._spans = {}, []
        self._handler, self._metrics = _dynamo()
        self._since_us = time.time_ns() // 1000
        if self._handler is not None:
            self._handler.register_start_callback(self._start)
            self._handler.register_end_callback(self._end)

    # The callbacks run inside the user's compilation: they never raise there.
    def _start(self, args):
        try:
            self._open[(str(args.callback_trigger), str(args.compile_id))] = time.time_ns()
        except Exception:
            pass

    def _end(self, args):
        try:
            key = (str(args.callback_trigger), str(args.compile_id))
            start = self._open.pop(key, None)
            if start is not None:
                backward = getattr(args.callback_trigger, "name", "") == "LAZY_BACKWARD"
                self._spans.append((key[1], "backward" if backward else "forward", start,
                                    time.time_ns()))
        except Exception:
            pass

    def stop(self):
        if self._handler is not None:
            for remove, callback in ((self._handler.remove_start_callback, self._start),
                                     (self._handler.remove_end_callback, self._end)):
                try:
                    remove(callback)
                except ValueError:
                    pass
            self._handler = None

    def _place(self, filename):
        if not filename:
            return ""
        path = os.path.abspath(filename)
        relative = os.path.relpath(path, self._root)
        return path if relative.startswith(os.pardir) else relative

    def compilations(self):
        """(compile id, kind, function, file, line, start ns, end ns, graph break, why it
        compiled again) for each compilation since the watch started."""
        metrics = {}
        if self._metrics is not None:
            for m in self._metrics():
                if m.co_name and m.compile_id and (m.start_time_us or 0) >= self._since_us:
                    metrics[str(m.compile_id)] = m
        result = []
        for compile_id, kind, start, end in self._spans:
            m = metrics.get(compile_id) if kind == "forward" else None
            function, file, line, broke, again = "", "", 0, "", ""
            if m is not None:
                function, file, line = m.co_name, self._place(m.co_filename), m.co_firstlineno
                resumed = _RESUMED.match(function)
                if resumed:
                    function = f"{resumed.group(1)}, resumed at line {resumed.group(2)}"
                broke = _first_reason(m.restart_reasons)
                again = re.sub(r"^\d+/\d+: ", "", (m.recompile_reason or "").strip())
            result.append((compile_id, kind, function, file, int(line or 0), start, end, broke,
                           again))
        return result
