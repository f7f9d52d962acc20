# SPDX-License-Identifier: Apache-2.0
"""The advisor: `python3 -m trainscope advise`'s what-ifs, predicted from what the step's forward
saved and from the baseline's memory curve (the engine's), and verified by profiling copies of
the model with the host (trainscope.profile). The host never imports the advisor."""
