# SPDX-License-Identifier: Apache-2.0
"""Messages for the user: one line each, whatever an exception's text holds."""


def one_line(error):
    """An exception's message on one line, also when its __str__ raises: LibTorch's messages
    end in a C++ backtrace ("Exception raised from ..."), which is left out, and their other
    lines are joined."""
    try:
        text = str(error)
    except Exception:
        return type(error).__name__
    lines = []
    for line in text.splitlines():
        if line.startswith("Exception raised from "):
            break
        if line.strip():
            lines.append(line.strip())
    return " ".join(lines) or type(error).__name__
