#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""How close advise's predictions come to what running each what-if measures (issues 56, 73), on
seed 004's MLP block with GELU (bfloat16, batch 2, sequence 4096, d 1024), a GPT-style model of
four blocks (tests/python/project/gpt_blocks.py, AdamW, a budget of 100 MiB), a stack of four
64-wide linear layers (linear_stack.py), an MLP calling F.gelu (functional_gelu.py), an MLP
regressing onto a float32 target with MSE and AdamW, its output scaled or not by a float32
buffer (regression_mlp.py), two
blocks the second of which is checkpointed (checkpointed.py) and the same checkpointed whole
in the step (checkpointed_model.py), where
torchvision is torchvision's ResNet-18 (resnet18.py: batch 8, 64x64 images, SGD with momentum,
a budget of 300 MiB), and where transformers is (PyTorch 2.x), its GPT-2 built from a
configuration (hf_gpt2.py: dropout and the key/value cache on, as it trains by default).
Each runs
`python3 -m trainscope advise ENTRY --verify --format json` in a process of its own; every
what-if's predicted and measured peak, activations and step time are printed with the error
(predicted - measured) / measured.

Targets: GELU -> ReLU exact on the MLP block's activations (seed 004: 83,886,080 bytes plus the
loss scalar) and peak; checkpointing each block of the GPT-style model, and every model's
forward under bfloat16 autocast, within 1 % of its measured peak, or where the what-if says
what it does not predict (code a checkpoint runs again in backward), printed so and left out
of the largest errors. Step times are figures of a shared machine, not a target.

    PYTHONPATH=build/dev/python python3 bench/advise_accuracy.py
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.join(HERE, "..", "tests", "python", "project")

def advise(entry, folder, *extra, env=None):
    result = subprocess.run(
        [sys.executable, "-m", "trainscope", "advise", "-q", "--verify", "--format", "json",
         entry, "-o", os.path.join(folder, "run"), "--force", *extra],
        capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"advise_accuracy: advise {os.path.basename(entry)} failed: {result.stderr}")
    return json.loads(result.stdout)


def error(w, figure):
    predicted, measured = w["predicted_" + figure], w["measured_" + figure]
    if measured is None:
        return None
    return (predicted - measured) / measured * 100 if measured else 0.0


def main():
    if "--help" in sys.argv[1:] or "-h" in sys.argv[1:]:
        print(__doc__)
        return 0
    worst = {"peak_bytes": 0.0, "activation_bytes": 0.0}
    met = True
    with tempfile.TemporaryDirectory() as folder:
        models = [
            ("MLP block (GELU, bf16)", os.path.join(PROJECT, "mlp_block.py"),
             ["--warmup", "0", "--iterations", "1"],
             dict(os.environ, TRAINSCOPE_TEST_ACTIVATION="GELU")),
            ("GPT-style, 4 blocks", os.path.join(PROJECT, "gpt_blocks.py"),
             ["--memory-budget", "100MiB"], None),
            ("Linear stack (4 x 64 wide)", os.path.join(PROJECT, "linear_stack.py"), [], None),
            ("MLP calling F.gelu", os.path.join(PROJECT, "functional_gelu.py"), [], None),
            ("Two blocks, the second checkpointed", os.path.join(PROJECT, "checkpointed.py"),
             [], None),
            ("The same, checkpointed whole", os.path.join(PROJECT, "checkpointed_model.py"),
             [], None),
            ("Regression MLP onto a float32 target (MSE, AdamW)",
             os.path.join(PROJECT, "regression_mlp.py"), [], None),
            ("The same, its output scaled by a float32 buffer",
             os.path.join(PROJECT, "regression_mlp.py"), [],
             dict(os.environ, TRAINSCOPE_TEST_SCALE="1")),
        ]
        if importlib.util.find_spec("torchvision"):
            models.append(("ResNet-18", os.path.join(PROJECT, "resnet18.py"),
                           ["--memory-budget", "300MiB"], None))
        if importlib.util.find_spec("transformers"):  # PyTorch 2.x's environment
            models.append(("transformers' GPT-2 (float32, from its configuration)",
                           os.path.join(PROJECT, "hf_gpt2.py"), [], None))
        for name, entry, extra, env in models:
            print(f"{name}:")
            for w in advise(entry, folder, *extra, env=env):
                if not w["verified"]:
                    print(f"  {w['change']} at {w['target']}: predicted only ({w['why_not']})")
                    continue
                errors = {figure: error(w, figure)
                          for figure in ("peak_bytes", "activation_bytes", "step_ms")}
                print(f"  {w['change']} at {w['target']}: peak {w['predicted_peak_bytes']:,} "
                      f"predicted, {w['measured_peak_bytes']:,} measured "
                      f"({errors['peak_bytes']:+.3f} %); activations "
                      f"{w['predicted_activation_bytes']:,} / "
                      f"{w['measured_activation_bytes']:,} ({errors['activation_bytes']:+.3f} %); "
                      f"step {w['predicted_step_ms']:.1f} / {w['measured_step_ms']:.1f} ms "
                      f"({errors['step_ms']:+.1f} %)")
                if w["not_predicted"]:
                    print(f"  not predicted: {w['not_predicted']}")
                if "run again in backward" not in w["not_predicted"]:
                    for figure in worst:
                        worst[figure] = max(worst[figure], abs(errors[figure]))
                if name.startswith("MLP") and w["change"] == "GELU -> ReLU":
                    exact = w["predicted_activation_bytes"] == w["measured_activation_bytes"] \
                        and w["predicted_peak_bytes"] == w["measured_peak_bytes"]
                    print(f"  GELU -> ReLU on the MLP block exact (target): "
                          f"{'met' if exact else 'MISSED'}")
                    met &= exact
                if w["change"] == "bfloat16 autocast of the forward":
                    within = abs(errors["peak_bytes"]) <= 1.0
                    # A checkpoint's recomputation said left out (CUDA's workspaces are not
                    # enough: they are said on every CUDA step).
                    said = "run again in backward" in w["not_predicted"]
                    print(f"  autocast's peak within 1 % of the measured peak, or what it does "
                          f"not predict said (target): {'met' if within or said else 'MISSED'}")
                    met &= within or said
                if name.startswith("GPT") and w["change"] == "checkpoint each block":
                    within = abs(errors["peak_bytes"]) <= 1.0
                    print(f"  checkpointing each block within 1 % of the measured peak "
                          f"(target): {'met' if within else 'MISSED'}")
                    met &= within
    print(f"Largest error over every what-if but those leaving a recomputation out: peak "
          f"{worst['peak_bytes']:.3f} %, activations {worst['activation_bytes']:.3f} %")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
