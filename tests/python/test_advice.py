# SPDX-License-Identifier: Apache-2.0
"""python3 -m trainscope advise: what-ifs predicted from what the step's forward saved for
backward, and with --verify measured by running them on a copy of the model.

Seed 004's MLP block (project/mlp_block.py: bfloat16, batch 2, sequence 4096, d 1024): with GELU
its activations are 18·b·s·d bytes and with ReLU 10·b·s·d, because ReLU's saved output is the
next layer's saved input while GELU keeps its input besides. The GELU -> ReLU what-if must
predict ReLU's figure to the byte, and measure the same."""

import copy
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import torch
from torch import nn

import bounded
import trainscope
from test_python_host import CLI, DEVICE, PROJECT, allocated, rows, run_ranks, tagged_line

RELU_ACTIVATIONS = 83_886_080  # 10·b·s·d, seed 004


def advise(entry, *extra, activation=None, env=None):
    """The JSON what-ifs of `advise` on `entry`, its exit status and stderr (`env`: more of the
    environment)."""
    env = dict(os.environ, **(env or {}))
    if activation:
        env["TRAINSCOPE_TEST_ACTIVATION"] = activation
    with tempfile.TemporaryDirectory() as folder:
        result = bounded.run(
            [sys.executable, "-m", "trainscope", "advise", "-q", "--format", "json",
             "--device", DEVICE, entry, "-o", os.path.join(folder, "run"), *extra],
            capture_output=True, text=True, env=env)
        written = sorted(os.listdir(folder))
    what_ifs = json.loads(result.stdout) if result.returncode == 0 else None
    return what_ifs, result, written


class Advice(unittest.TestCase):
    def test_gelu_to_relu_on_seed_004s_mlp_is_predicted_and_measured_to_the_byte(self):
        what_ifs, result, written = advise(os.path.join(PROJECT, "mlp_block.py"), "--verify",
                                           "--warmup", "0", "--iterations", "1",
                                           activation="GELU")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(written, ["run.advice.sqlite", "run.memory.sqlite", "run.time.sqlite",
                                   "run.timeline.sqlite"])
        (what_if,) = what_ifs
        self.assertEqual((what_if["change"], what_if["target"]), ("GELU -> ReLU", "act_fn"))
        # ReLU's activations, as seed 004 gives them, and the loss scalar the step holds.
        self.assertEqual(what_if["predicted_activation_bytes"], RELU_ACTIVATIONS + allocated(2))
        self.assertTrue(what_if["verified"], what_if["why_not"])
        self.assertEqual(what_if["measured_activation_bytes"],
                         what_if["predicted_activation_bytes"])
        self.assertEqual(what_if["measured_peak_bytes"], what_if["predicted_peak_bytes"])
        self.assertGreater(what_if["measured_step_ms"], 0)

    def test_without_verify_each_what_if_is_predicted_and_says_it_was_not_run(self):
        what_ifs, result, _ = advise(os.path.join(PROJECT, "mlp_block.py"), "--warmup", "0",
                                     "--iterations", "1", activation="GELU")
        self.assertEqual(result.returncode, 0, result.stderr)
        (what_if,) = what_ifs
        self.assertEqual(what_if["predicted_activation_bytes"], RELU_ACTIVATIONS + allocated(2))
        self.assertFalse(what_if["verified"])
        self.assertIsNone(what_if["measured_peak_bytes"])
        self.assertIsNone(what_if["measured_activation_bytes"])
        self.assertIsNone(what_if["measured_step_ms"])
        self.assertIn("--verify", what_if["why_not"])

    def test_a_step_whose_activations_keep_their_output_has_no_what_if(self):
        what_ifs, result, _ = advise(os.path.join(PROJECT, "mlp_block.py"), "--verify",
                                     "--warmup", "0", "--iterations", "1", activation="ReLU")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(what_ifs, [])

    def test_on_a_gpt_style_model_checkpointing_each_block_is_predicted_within_1_percent(self):
        what_ifs, result, _ = advise(os.path.join(PROJECT, "gpt_blocks.py"), "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        by_target = {(w["change"], w["target"]): w for w in what_ifs}
        checkpoint = by_target[("checkpoint each block", "h")]
        self.assertTrue(checkpoint["verified"], checkpoint["why_not"])
        for figure in ("peak_bytes", "activation_bytes"):
            predicted, measured = checkpoint["predicted_" + figure], checkpoint["measured_" + figure]
            self.assertLess(abs(predicted - measured), 0.01 * measured, (figure, checkpoint))
        # Checkpointing keeps each block's input alone: far less than the step's activations.
        self.assertLess(checkpoint["measured_activation_bytes"],
                        by_target[("GELU -> ReLU", "h.0.act")]["measured_activation_bytes"] / 2)
        # Its forward under bfloat16 autocast: the saved tensors' dtypes followed through the
        # graph (the matrix products' casts, the float32 residual stream, the weights' casts
        # kept once, the logits the step holds): activations to the byte, the peak within 1 %.
        autocast = by_target[("bfloat16 autocast of the forward", "the model")]
        self.assertTrue(autocast["verified"], autocast["why_not"])
        self.assertEqual(autocast["measured_activation_bytes"],
                         autocast["predicted_activation_bytes"])
        self.assertLess(autocast["measured_activation_bytes"],
                        by_target[("GELU -> ReLU", "h.0.act")]["measured_activation_bytes"])
        self.assertLess(abs(autocast["predicted_peak_bytes"] - autocast["measured_peak_bytes"]),
                        0.01 * autocast["measured_peak_bytes"])
        # Each block's GELU, and all four at once, to the byte.
        for target in ("h.0.act", "h.1.act", "h.2.act", "h.3.act", "every such module"):
            w = by_target[("GELU -> ReLU", target)]
            self.assertEqual(w["measured_peak_bytes"], w["predicted_peak_bytes"], target)
            self.assertEqual(w["measured_activation_bytes"], w["predicted_activation_bytes"],
                             target)

    def test_gradients_kept_through_the_forward_are_predicted_freed_to_the_byte(self):
        # zero_grad(set_to_none=False) after the optimizer's step: the gradients are alive
        # through the next forward, and backward accumulates into them one by one.
        what_ifs, result, _ = advise(os.path.join(PROJECT, "kept_gradients.py"), "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        (freed,) = [w for w in what_ifs if w["target"] == "the gradients"]
        self.assertEqual(freed["change"], "zero_grad(set_to_none=True)")
        self.assertTrue(freed["verified"], freed["why_not"])
        self.assertEqual(freed["measured_peak_bytes"], freed["predicted_peak_bytes"])
        self.assertEqual(freed["measured_activation_bytes"], freed["predicted_activation_bytes"])
        # A step that frees them already (set_to_none=True) is not told to.
        what_ifs, result, _ = advise(os.path.join(PROJECT, "set_to_none.py"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual([w for w in what_ifs if w["target"] == "the gradients"], [])

    @unittest.skipIf(torch.__version__ >= "2", "2.x's zero_grad frees the gradients already")
    def test_gradients_kept_through_a_checkpointed_step_are_predicted_freed_to_the_byte(self):
        # Backward accumulates into more leaves than the parameters there: the model's input,
        # and the inputs a reentrant checkpoint detaches to run its code again (10 accumulations
        # for 8 parameters). Unmatched, each gradient was predicted freed through the forward
        # pass alone: 15.8 % high.
        for entry in ("checkpointed.py", "checkpointed_nonreentrant.py",
                      "checkpointed_model.py"):
            with self.subTest(entry=entry):
                what_ifs, result, _ = advise(os.path.join(PROJECT, entry), "--verify")
                self.assertEqual(result.returncode, 0, result.stderr)
                (freed,) = [w for w in what_ifs if w["target"] == "the gradients"]
                self.assertTrue(freed["verified"], freed["why_not"])
                self.assertEqual(freed["measured_peak_bytes"], freed["predicted_peak_bytes"])

    def test_the_text_printed_is_what_the_advice_report_holds(self):
        env = dict(os.environ, TRAINSCOPE_TEST_ACTIVATION="GELU")
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            printed = bounded.run(
                [sys.executable, "-m", "trainscope", "advise", "-q", "--verify", "--warmup",
                 "0", "--iterations", "1", "--device", DEVICE,
                 os.path.join(PROJECT, "mlp_block.py"), "-o", prefix],
                capture_output=True, text=True, env=env)
            self.assertEqual(printed.returncode, 0, printed.stderr)
            shown = bounded.run([CLI, "show", prefix + ".advice.sqlite"], capture_output=True,
                                   text=True)
            self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertEqual(shown.stdout,
                         f"{prefix}.advice.sqlite: what-ifs (advise)\n" + printed.stdout)
        self.assertIn("GELU -> ReLU at act_fn:\n  peak         predicted", printed.stdout)
        self.assertIn("(exact)", printed.stdout)

    def check_batch_within(self, what_ifs, budget):
        """The largest batch within `budget` and the one above it: each run, its peak and
        activations as predicted, the largest within the budget and the one above not."""
        batches = [w for w in what_ifs if w["target"] == "the inputs"]
        self.assertEqual(len(batches), 2, batches)
        largest, above = batches
        self.assertRegex(largest["change"], r"^batch size 8 -> \d+$")
        size = int(largest["change"].split()[-1])
        self.assertEqual(above["change"],
                         f"batch size 8 -> {size + 1} (the first above the budget)")
        for w in batches:
            self.assertTrue(w["verified"], w["why_not"])
            for figure in ("peak_bytes", "activation_bytes"):
                predicted, measured = w["predicted_" + figure], w["measured_" + figure]
                self.assertLessEqual(abs(predicted - measured), 0.01 * measured, (figure, w))
        self.assertLessEqual(largest["predicted_peak_bytes"], budget)
        self.assertLessEqual(largest["measured_peak_bytes"], budget)
        self.assertGreater(above["predicted_peak_bytes"], budget)
        self.assertGreater(above["measured_peak_bytes"], budget)
        return size

    def test_the_largest_batch_within_a_budget_is_predicted_and_fits_when_run(self):
        budget = 100 * 2**20
        what_ifs, result, _ = advise(os.path.join(PROJECT, "gpt_blocks.py"), "--verify",
                                     "--memory-budget", "100MiB")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertGreater(self.check_batch_within(what_ifs, budget), 8)
        # AdamW's two moments against SGD's one buffer: the state's difference, to the byte.
        (optimizer,) = [w for w in what_ifs if w["target"] == "the optimizer"]
        self.assertEqual(optimizer["measured_peak_bytes"], optimizer["predicted_peak_bytes"])

    def test_a_budget_where_the_peak_moves_within_the_step(self):
        # The linear stack's peak at batch 8 lies late in its backward pass, where the gradients
        # (as large as the weights) are made and its small activations mostly freed; at the
        # thousands of samples a 4 MiB budget allows, it lies where the activations are all
        # alive. Scaling what was alive at the batch-8 peak predicted 15,794 for 4 MiB (measured
        # 19.6 MiB): the step recorded at a second batch predicts the whole curve.
        for budget, text in ((4 * 2**20, "4MiB"), (6 * 2**20, "6MiB")):
            with self.subTest(budget=text):
                what_ifs, result, _ = advise(os.path.join(PROJECT, "linear_stack.py"),
                                             "--verify", "--memory-budget", text)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertGreater(self.check_batch_within(what_ifs, budget), 1000)

    def test_with_a_budget_the_fewest_blocks_that_fit_it_are_checkpointed(self):
        # Between the step's peak and that of every block checkpointed: fewer blocks do.
        budget = 32 * 2**20
        what_ifs, result, _ = advise(os.path.join(PROJECT, "gpt_blocks.py"), "--verify",
                                     "--memory-budget", "32MiB")
        self.assertEqual(result.returncode, 0, result.stderr)
        every = [w for w in what_ifs if w["change"] == "checkpoint each block"][0]
        (fewest,) = [w for w in what_ifs if w["change"].startswith("checkpoint the fewest")]
        blocks = fewest["change"].split(": ")[1].split(", ")
        self.assertTrue(0 < len(blocks) < 4, fewest["change"])
        self.assertTrue(set(blocks) < {"h.0", "h.1", "h.2", "h.3"}, blocks)
        self.assertEqual(fewest["target"], "h")
        self.assertLessEqual(fewest["predicted_peak_bytes"], budget)
        self.assertTrue(fewest["verified"], fewest["why_not"])
        self.assertLessEqual(fewest["measured_peak_bytes"], budget)
        self.assertLess(abs(fewest["predicted_peak_bytes"] - fewest["measured_peak_bytes"]),
                        0.01 * fewest["measured_peak_bytes"])
        # Fewer blocks run again: more activations kept, less time than every block.
        self.assertGreater(fewest["measured_activation_bytes"],
                           every["measured_activation_bytes"])
        self.assertLess(fewest["predicted_step_ms"], every["predicted_step_ms"])

    def test_an_activation_module_of_several_operations_is_swapped_for_relu(self):
        # NewGELUActivation (transformers' formula): found by its class name; what only its
        # nodes saved (its input and intermediates) is freed, to the byte.
        what_ifs, result, _ = advise(os.path.join(PROJECT, "new_gelu.py"), "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        swaps = {w["target"]: w for w in what_ifs if w["change"].endswith("-> ReLU")}
        self.assertEqual(sorted(swaps), ["1", "3", "every such module"])
        self.assertEqual(swaps["1"]["change"], "NewGELUActivation -> ReLU")
        for target, w in swaps.items():
            self.assertTrue(w["verified"], w["why_not"])
            self.assertEqual(w["measured_activation_bytes"], w["predicted_activation_bytes"],
                             target)
            self.assertLess(abs(w["predicted_peak_bytes"] - w["measured_peak_bytes"]),
                            0.01 * w["measured_peak_bytes"], target)
        self.assertLess(swaps["every such module"]["measured_activation_bytes"],
                        swaps["1"]["measured_activation_bytes"])

    @unittest.skipUnless(importlib.util.find_spec("transformers"), "transformers is not here")
    def test_on_transformers_gpt2_checkpointing_and_its_activation_are_predicted(self):
        # Its blocks take the key/value cache: run again in backward they would add to it, so
        # the copy turns the cache off as gradient_checkpointing_enable does.
        what_ifs, result, _ = advise(os.path.join(PROJECT, "hf_gpt2.py"), "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        (checkpoint,) = [w for w in what_ifs if w["change"] == "checkpoint each block"]
        self.assertEqual(checkpoint["target"], "transformer.h")
        # Its NewGELUActivation ("gelu_new"), found by its class name, swapped for ReLU.
        swap = [w for w in what_ifs if w["target"] == "transformer.h.0.mlp.act"][0]
        self.assertEqual(swap["change"], "NewGELUActivation -> ReLU")
        self.assertEqual(swap["measured_activation_bytes"], swap["predicted_activation_bytes"])
        # Its forward under autocast: the math path of its attention (dropout on) and its loss
        # (cross-entropy, inside its forward) run in float32.
        (autocast,) = [w for w in what_ifs if w["change"] == "bfloat16 autocast of the forward"]
        self.assertEqual(autocast["measured_activation_bytes"],
                         autocast["predicted_activation_bytes"])
        self.assertLess(abs(autocast["predicted_peak_bytes"] - autocast["measured_peak_bytes"]),
                        0.01 * autocast["measured_peak_bytes"])
        self.assertTrue(checkpoint["verified"], checkpoint["why_not"])
        for figure in ("peak_bytes", "activation_bytes"):
            predicted, measured = checkpoint["predicted_" + figure], checkpoint["measured_" + figure]
            self.assertLess(abs(predicted - measured), 0.01 * measured, (figure, checkpoint))

    @unittest.skipIf(DEVICE != "cpu", "a job of Gloo ranks on this machine's CPU")
    def test_sharding_the_state_over_two_ranks_is_held_to_a_job_of_two_ranks(self):
        # The prediction from one process (AdamW), against the job it predicts: two Gloo ranks
        # with ZeroRedundancyOptimizer over AdamW, each profiled; the most loaded rank's peak.
        entry = os.path.join(PROJECT, "zero_sharded.py")
        what_ifs, result, _ = advise(entry, "--ranks", "2")
        self.assertEqual(result.returncode, 0, result.stderr)
        (sharded,) = [w for w in what_ifs if "sharded" in w["change"]]
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "one")
            alone = bounded.run([sys.executable, "-m", "trainscope", "profile", "-q", entry,
                                    "-o", prefix], capture_output=True, text=True)
            self.assertEqual(alone.returncode, 0, alone.stderr)
            state = dict(rows(prefix + ".memory.sqlite", "SELECT key, size_bytes FROM "
                              "misc_sizes"))["peak_optimizer_state_bytes"]
            job = os.path.join(folder, "job")
            ranks = run_ranks(2, [sys.executable, "-m", "trainscope", "profile", "-q", entry,
                                  "-o", job])
            self.assertEqual([code for code, _, _ in ranks], [0, 0], ranks)
            peaks = [dict(rows(f"{job}.rank{rank}.memory.sqlite",
                               "SELECT key, size_bytes FROM misc_sizes")) for rank in (0, 1)]
        # Each rank holds its share of AdamW's state, as the memory report recognises it.
        self.assertEqual(sum(p["peak_optimizer_state_bytes"] for p in peaks), state)
        self.assertTrue(all(0 < p["peak_optimizer_state_bytes"] < state for p in peaks))
        measured = max(p["peak_usage_bytes"] for p in peaks)
        self.assertLess(abs(sharded["predicted_peak_bytes"] - measured), 0.001 * measured,
                        (sharded, peaks))

    def test_sharding_the_state_over_ranks_is_predicted_and_says_what_it_needs(self):
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            result = bounded.run(
                [sys.executable, "-m", "trainscope", "advise", "-q", "--format", "json",
                 "--device", DEVICE, "--ranks", "4", os.path.join(PROJECT, "gpt_blocks.py"),
                 "-o", prefix], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            baseline = dict(rows(prefix + ".advice.sqlite",
                                 "SELECT key, value FROM trainscope_metadata"))
            # AdamW's state per weight, as the memory report holds it.
            states = [n for (n,) in rows(prefix + ".memory.sqlite",
                                         "SELECT optimizer_state_bytes FROM "
                                         "trainscope_weight_details")]
        (sharded,) = [w for w in json.loads(result.stdout) if "sharded" in w["change"]]
        self.assertEqual(sharded["change"], "optimizer state sharded over 4 ranks (ZeRO-1)")
        self.assertFalse(sharded["verified"])
        self.assertIn("ZeroRedundancyOptimizer", sharded["why_not"])
        # The most loaded rank keeps at least a quarter of the state, and (parameters given
        # largest first to the least loaded rank) at most a quarter plus the largest share.
        kept_away = int(baseline["baseline_peak_bytes"]) - sharded["predicted_peak_bytes"]
        state = sum(states)
        self.assertLessEqual(kept_away, state - state // 4)
        self.assertGreaterEqual(kept_away, state - state // 4 - max(states))

    def test_an_interrupted_verification_says_what_is_written_and_what_is_not(self):
        # The profile's three reports are written before the what-ifs are verified: Ctrl-C
        # then leaves them without the advice file, and the line says so (a rerun needs
        # --force).
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            with bounded.Popen([sys.executable, "-m", "trainscope", "advise", "-q", "--verify",
                                "--memory-budget", "1GiB", os.path.join(PROJECT, "slow_step.py"),
                                "-o", prefix], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) as process:
                while process.poll() is None and not os.path.exists(prefix + ".timeline.sqlite"):
                    time.sleep(0.05)
                time.sleep(0.5)  # into the what-ifs' runs
                process.send_signal(signal.SIGINT)
                out, err = process.communicate()
            self.assertEqual(process.returncode, 1, err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertIn(f"trainscope: error: interrupted; {prefix}.memory.sqlite, "
                          f"{prefix}.time.sqlite, {prefix}.timeline.sqlite are written, "
                          f"{prefix}.advice.sqlite is not", err)
            self.assertEqual(sorted(os.listdir(folder)),
                             ["run.memory.sqlite", "run.time.sqlite", "run.timeline.sqlite"])

    def test_a_what_if_that_raises_the_memory_is_said_to_make_the_step_worse(self):
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            result = bounded.run(
                [sys.executable, "-m", "trainscope", "advise", "-q", "--verify", "--device",
                 DEVICE, os.path.join(PROJECT, "linear_stack.py"), "-o", prefix],
                capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            advice = prefix + ".advice.sqlite"
            baseline = dict(rows(advice, "SELECT key, value FROM trainscope_metadata"))
            ((peak,),) = rows(advice, "SELECT measured_peak_bytes FROM trainscope_what_ifs "
                                      "WHERE change = 'checkpoint each block'")
        # Measured above the step's own peak: each layer's input kept is as large as what the
        # layer saved.
        self.assertGreater(peak, int(baseline["baseline_peak_bytes"]))
        lines = result.stdout.split("\n")
        start = lines.index("checkpoint each block at layers:")
        block = lines[start + 1:]
        block = block[:next((i for i, line in enumerate(block) if not line.startswith("  ")),
                            len(block))]
        said = [line for line in block if line.startswith("  worse: ")]
        self.assertEqual(len(said), 1, result.stdout)
        self.assertRegex(said[0], r"^  worse: measured, the peak [0-9.]+ [KM]?i?B higher and "
                                  r"activations [0-9.]+ [KM]?i?B more than the step as it is: "
                                  r"not advised$")

    def test_each_what_if_names_the_line_of_the_users_code_to_change(self):
        entry = os.path.join(PROJECT, "gpt_blocks.py")
        what_ifs, result, _ = advise(entry, "--warmup", "0", "--iterations", "1")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(entry) as f:
            source = f.read().split("\n")

        def line_of(text):  # the one line of gpt_blocks.py that holds `text`
            (line,) = [i + 1 for i, code in enumerate(source) if text in code]
            return line
        where = {(w["change"], w["target"]): (w["source_file"], w["source_line"])
                 for w in what_ifs}
        # The line that builds the module, not the one that calls it.
        self.assertEqual(where[("GELU -> ReLU", "h.0.act")],
                         ("gpt_blocks.py", line_of("self.act = nn.GELU()")))
        # The line that calls the blocks, in the loop over them.
        self.assertEqual(where[("checkpoint each block", "h")],
                         ("gpt_blocks.py", line_of("x = block(x)")))
        self.assertEqual(where[("AdamW -> SGD with momentum", "the optimizer")],
                         ("gpt_blocks.py", line_of("torch.optim.AdamW(")))
        if torch.__version__ < "2":  # 2.x's zero_grad frees the gradients: no what-if
            self.assertEqual(where[("zero_grad(set_to_none=True)", "the gradients")],
                             ("gpt_blocks.py", line_of("optimizer.zero_grad()")))
        # Several modules at once have no one line.
        self.assertEqual(where[("GELU -> ReLU", "every such module")], (None, None))

    @unittest.skipUnless(importlib.util.find_spec("timm"), "timm is not installed")
    def test_a_module_an_installed_package_builds_names_no_line_of_yours(self):
        # timm's ViT: its Mlp builds the GELU in timm's own file, no line the user can change
        # (it read ".../site-packages/timm/layers/mlp.py:41").
        what_ifs, result, _ = advise(os.path.join(PROJECT, "architectures.py"),
                                     "--warmup", "0", "--iterations", "1",
                                     env={"TRAINSCOPE_TEST_ARCHITECTURE": "vit"})
        self.assertEqual(result.returncode, 0, result.stderr)
        swaps = [w for w in what_ifs if w["change"] == "GELU -> ReLU"]
        self.assertTrue(swaps, what_ifs)
        for w in swaps:
            self.assertEqual((w["source_file"], w["source_line"]), (None, None), w)

    def test_a_budget_that_is_no_size_is_refused_in_one_line(self):
        _, result, written = advise(os.path.join(PROJECT, "gpt_blocks.py"), "--memory-budget",
                                    "lots")
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
        self.assertEqual(result.stderr.count("--memory-budget"), 1, result.stderr)  # once
        self.assertEqual(written, [])

    def test_a_functional_activation_is_predicted_with_the_line_to_change(self):
        entry = os.path.join(PROJECT, "functional_gelu.py")
        what_ifs, result, _ = advise(entry, "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        (what_if,) = [w for w in what_ifs if w["change"].startswith("F.")]
        line = tagged_line(entry, "activation")
        self.assertEqual((what_if["change"], what_if["target"]),
                         ("F.gelu -> F.relu", f"functional_gelu.py:{line}"))
        self.assertFalse(what_if["verified"])
        self.assertIn(f"change it to F.relu at functional_gelu.py:{line}", what_if["why_not"])
        # What the step measures with the line changed by hand, to the byte.
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "relu")
            env = dict(os.environ, TRAINSCOPE_TEST_FUNCTION="relu")
            changed = bounded.run(
                [sys.executable, "-m", "trainscope", "advise", "-q", "--device", DEVICE, entry,
                 "-o", prefix], capture_output=True, text=True, env=env)
            self.assertEqual(changed.returncode, 0, changed.stderr)
            measured = dict(rows(prefix + ".advice.sqlite",
                                 "SELECT key, value FROM trainscope_metadata"))
        self.assertEqual(what_if["predicted_activation_bytes"],
                         int(measured["baseline_activation_bytes"]))
        self.assertEqual(what_if["predicted_peak_bytes"], int(measured["baseline_peak_bytes"]))

    def test_existing_reports_are_not_replaced_without_force(self):
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            with open(prefix + ".time.sqlite", "w") as f:
                f.write("the user's file")
            result = bounded.run(
                [sys.executable, "-m", "trainscope", "advise", "-q",
                 os.path.join(PROJECT, "mlp_block.py"), "-o", prefix],
                capture_output=True, text=True,
                env=dict(os.environ, TRAINSCOPE_TEST_ACTIVATION="GELU"))
            self.assertEqual(result.returncode, 2)
            self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
            self.assertIn("--force", result.stderr)
            with open(prefix + ".time.sqlite") as f:
                self.assertEqual(f.read(), "the user's file")


class TwoGelus(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin_0, self.act_0 = nn.Linear(64, 256), nn.GELU()
        self.lin_1, self.act_1 = nn.Linear(256, 256), nn.SiLU()
        self.lin_2 = nn.Linear(256, 64)

    def forward(self, x):
        return self.lin_2(self.act_1(self.lin_1(self.act_0(self.lin_0(x)))))


class SiluAndMul(nn.Module):
    """A gated activation (SwiGLU's): no weights, "silu" in its name, half its input's width."""

    def forward(self, x):
        half = x.shape[-1] // 2
        return nn.functional.silu(x[..., :half]) * x[..., half:]


class VerifyingInTheProcess(unittest.TestCase):
    def test_a_prediction_below_zero_is_left_out_and_said_the_others_kept(self):
        # A negative figure would make the advice report one that no reader opens (on CUDA a
        # backward pass once unseen made the whole of advise fail on it).
        import io
        from trainscope.advisor import advice as _advice
        fine = _advice.WhatIf("swap", "mlp.act",
                              {"peak_bytes": 10, "activation_bytes": 0, "step_ms": 1.0})
        below = _advice.WhatIf("checkpoint", "h.0",
                               {"peak_bytes": 10, "activation_bytes": -4, "step_ms": 1.0})
        said = io.StringIO()
        self.assertEqual(_advice.without_impossible([below, fine], said), [fine])
        self.assertEqual(said.getvalue().count("\n"), 1)
        self.assertIn("left out: checkpoint at h.0: its prediction came out below zero "
                      "(peak 10 bytes, activations -4 bytes", said.getvalue())

    def test_a_gated_activation_is_no_activation_to_swap(self):
        from trainscope.advisor import advice as _advice
        model = nn.Sequential(nn.Linear(16, 64), SiluAndMul(), nn.Linear(32, 4)).to(DEVICE)

        def step(x):
            model(x).sum().backward()
        saved = _advice.record_saved(model, step, (torch.randn(8, 16, device=DEVICE),))
        self.assertEqual(_advice.activation_kind(model[1]), "SiLU")  # by its name alone...
        self.assertEqual([c.module for c in saved.activations], [])  # ...but not its shape


    def test_a_forward_under_autocast_already_is_not_offered_autocast(self):
        from trainscope.advisor import advice as _advice
        model = TwoGelus().to(DEVICE)
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)

        def step(x):
            optimizer.zero_grad()
            with torch.autocast(DEVICE, dtype=torch.bfloat16):
                loss = model(x).float().sum()
            loss.backward()
            optimizer.step()
        saved = _advice.record_saved(model, step, (torch.randn(4, 64, device=DEVICE),))
        self.assertTrue(saved.autocast.already)
        self.assertEqual(_advice.autocast_what_ifs(model, saved.autocast, None, None, DEVICE),
                         [])


    def test_verifying_leaves_the_users_model_and_optimizer_as_they_were(self):
        from trainscope.advisor import advice as _advice
        from trainscope._entry import optimizer_of
        torch.manual_seed(0)
        model = TwoGelus().to(DEVICE)
        inputs = (torch.randn(16, 64, device=DEVICE),)

        def make_step(m):
            optimizer = torch.optim.AdamW(m.parameters(), lr=1e-3)

            def step(x):
                optimizer.zero_grad()
                m(x).sum().backward()
                optimizer.step()
            step.optimizer = optimizer
            return step

        step = make_step(model)
        saved = _advice.record_saved(model, step, inputs)
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            with trainscope.profile(prefix, model=model, optimizer=step.optimizer, warmup=1,
                                    active=1) as observing:
                for _ in range(2):
                    step(*inputs)
                    observing.step()
            parameters = [p.detach().clone() for p in model.parameters()]
            gradients = [p.grad.detach().clone() for p in model.parameters()]
            state = copy.deepcopy(step.optimizer.state_dict())
            users = _advice.UsersStep(model, step.optimizer, make_step, optimizer_of, inputs,
                                      folder, 1, 1)
            what_ifs = _advice.advise(users, observing.figures, prefix, saved, verify=True)
        # One what-if per activation module, one for both, and AdamW's state against SGD's.
        self.assertEqual(sorted((w.change, w.target) for w in what_ifs),
                         [("AdamW -> SGD with momentum", "the optimizer"),
                          ("GELU -> ReLU", "act_0"), ("GELU and SiLU -> ReLU", "every such module"),
                          ("SiLU -> ReLU", "act_1"),
                          ("bfloat16 autocast of the forward", "the model")])
        for w in what_ifs:
            self.assertIsNotNone(w.measured, w.why_not)
            self.assertEqual(w.measured["activation_bytes"], w.predicted["activation_bytes"],
                             w.target)
            self.assertEqual(w.measured["peak_bytes"], w.predicted["peak_bytes"], w.target)
        self.assertIsInstance(step.optimizer, torch.optim.AdamW)  # the copy's step was swapped
        self.assertIsInstance(model.act_0, nn.GELU)
        self.assertIsInstance(model.act_1, nn.SiLU)
        self.assertNotIn("forward", vars(model))  # the copy's forward ran under autocast
        for before, after in zip(parameters, model.parameters()):
            self.assertTrue(torch.equal(before, after))
        for before, after in zip(gradients, model.parameters()):
            self.assertTrue(torch.equal(before, after.grad))
        after = step.optimizer.state_dict()
        for key, moments in state["state"].items():
            for name, value in moments.items():
                self.assertTrue(torch.equal(torch.as_tensor(value),
                                            torch.as_tensor(after["state"][key][name])))


    def test_a_step_that_trains_another_model_than_it_is_given_is_not_run(self):
        from trainscope.advisor import advice as _advice
        from trainscope._entry import optimizer_of
        torch.manual_seed(0)
        model = TwoGelus().to(DEVICE)
        inputs = (torch.randn(16, 64, device=DEVICE),)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

        def step(x):  # the user's model and optimizer, whatever model it is made for
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
        step.optimizer = optimizer
        saved = _advice.record_saved(model, step, inputs)
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            with trainscope.profile(prefix, model=model, optimizer=optimizer, warmup=1,
                                    active=1) as observing:
                for _ in range(2):
                    step(*inputs)
                    observing.step()
            parameters = [p.detach().clone() for p in model.parameters()]
            users = _advice.UsersStep(model, optimizer, lambda m: step, optimizer_of, inputs,
                                      folder, 1, 1)
            what_ifs = _advice.advise(users, observing.figures, prefix, saved, verify=True)
        self.assertTrue(what_ifs)
        for w in what_ifs:
            self.assertIsNone(w.measured, w.change)
            self.assertIn("would train your model", w.why_not)
        for before, after in zip(parameters, model.parameters()):
            self.assertTrue(torch.equal(before, after))


class SavedTensorHooks(unittest.TestCase):
    """A non-reentrant checkpoint (the form PyTorch 2.x recommends) keeps its block's saved
    tensors out of their nodes, behind saved-tensor hooks whose unpack runs the block again:
    advise's recording reads no such tensor. Reading them made 2.15 run the block 7 times in a
    step that runs it twice, and 1.13's backward raise."""

    def test_recording_the_saved_tensors_runs_a_checkpointed_block_as_often_as_the_step(self):
        sys.path.insert(0, PROJECT)
        try:
            from checkpointed import Checkpointed
        finally:
            sys.path.remove(PROJECT)
        from trainscope.advisor.saved import SavedTensors

        def calls_of_the_second_block(record):
            torch.manual_seed(0)
            model = Checkpointed(use_reentrant=False)
            calls = []
            model.second.register_forward_pre_hook(lambda module, args: calls.append(1))
            x = torch.randn(8, 64, requires_grad=True)
            record(model, lambda: model(x).sum().backward())
            return len(calls)

        plain = calls_of_the_second_block(lambda model, step: step())
        recorded = calls_of_the_second_block(
            lambda model, step: SavedTensors(model, lambda module: None).record(step))
        self.assertEqual(plain, 2)  # its forward, and again in backward
        self.assertEqual(recorded, plain)

    def test_a_function_called_inside_a_checkpoint_is_not_run_again_either(self):
        # F.gelu's node is made inside the checkpoint but claimed by the module that calls
        # checkpoint, after its hooks are gone: known by the function's return.
        from torch.utils.checkpoint import checkpoint
        from trainscope.advisor.saved import SavedTensors

        class GeluInside(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(16, 16)
                self.runs = 0

            def block(self, h):
                self.runs += 1
                return nn.functional.gelu(self.fc(h))

            def forward(self, x):
                return checkpoint(self.block, x, use_reentrant=False)

        def runs(record):
            torch.manual_seed(0)
            model = GeluInside()
            x = torch.randn(4, 16, requires_grad=True)
            record(model, lambda: torch.autograd.backward(model(x).sum()))
            return model.runs

        plain = runs(lambda model, step: step())
        self.assertEqual(plain, 2)
        self.assertEqual(
            runs(lambda model, step: SavedTensors(model, lambda module: None).record(step)),
            plain)

    def test_a_step_with_a_non_reentrant_checkpoint_is_advised_and_verified(self):
        what_ifs, result, _ = advise(os.path.join(PROJECT, "checkpointed_nonreentrant.py"),
                                     "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(what_ifs)
        for what_if in what_ifs:
            self.assertTrue(what_if["verified"], what_if)


class AutocastsPeak(unittest.TestCase):
    """The bfloat16 autocast what-if's peak within 1 % of its run, on models where a float32
    step alone misses it: the bfloat16 kernels' own temporaries (oneDNN's, which depend on the
    processor: a 64-wide linear stack's were 14 % of its peak), a weight's gradient in bfloat16
    until its cast (ResNet-18's convolutions), a loss's sum whose gradient the last layer's
    kernel copies (an expanded tensor)."""

    def peak_error(self, entry):
        what_ifs, result, _ = advise(os.path.join(PROJECT, entry), "--verify")
        self.assertEqual(result.returncode, 0, result.stderr)
        (autocast,) = [w for w in what_ifs if w["change"] == "bfloat16 autocast of the forward"]
        self.assertTrue(autocast["verified"], autocast["why_not"])
        measured = autocast["measured_peak_bytes"]
        return (autocast["predicted_peak_bytes"] - measured) / measured

    @unittest.skipIf(DEVICE != "cpu", "the kernels' temporaries are probed on the CPU")
    def test_small_models_peaks_are_predicted_within_1_percent(self):
        for entry in ("linear_stack.py", "functional_gelu.py", "set_to_none.py"):
            with self.subTest(entry=entry):
                self.assertLess(abs(self.peak_error(entry)), 0.01)

    def test_a_float32_target_and_buffer_keep_their_dtype_and_promote_what_they_meet(self):
        # A loss of the bfloat16 output and the step's float32 target is float32 (on the CPU its
        # storage is the elementwise loss, held by the step's loss), the target no activation
        # whose dtype changes, the output's block freed as the loss's node returns; a float32
        # buffer makes the scaled output float32 while the last layer's own output (and its
        # gradient) is bfloat16. The prediction was 6 % and 9 % low, its activations 15 % and
        # 21 %.
        for scaled in ("", "1"):
            with self.subTest(scaled=bool(scaled)):
                what_ifs, result, _ = advise(os.path.join(PROJECT, "regression_mlp.py"),
                                             "--verify", env={"TRAINSCOPE_TEST_SCALE": scaled})
                self.assertEqual(result.returncode, 0, result.stderr)
                (autocast,) = [w for w in what_ifs
                               if w["change"] == "bfloat16 autocast of the forward"]
                if torch.__version__.startswith("1.") and not scaled:
                    # 1.13's MSE backward refuses a bfloat16 input with a float32 target: the
                    # what-if says that running it raised, as the user's step would.
                    self.assertFalse(autocast["verified"])
                    self.assertIn("expected BFloat16", autocast["why_not"])
                    continue
                self.assertTrue(autocast["verified"], autocast["why_not"])
                self.assertEqual(autocast["predicted_activation_bytes"],
                                 autocast["measured_activation_bytes"])
                measured = autocast["measured_peak_bytes"]
                self.assertLess(abs(autocast["predicted_peak_bytes"] - measured),
                                0.01 * measured)

    @unittest.skipIf(DEVICE != "cpu", "the CPU's allocator keeps a block's bytes as asked")
    def test_casts_that_autocasts_cache_holds_and_no_node_saves_live_until_the_forward_returns(
            self):
        # The first layer's node keeps its input alone (it takes no gradient), no node keeps a
        # bias: their casts, made once per forward, are freed as the forward returns. On a
        # processor whose bfloat16 kernels take large temporaries (AMX: 13 KiB for each of the
        # linear stack's matrix products) the peak is in the forward, and missing them put
        # the predicted peak 1.9 % low.
        from trainscope.advisor import advice as _advice
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(64, 64), nn.Linear(64, 64), nn.Linear(64, 4))
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

        def step(x):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()
        x = torch.randn(8, 64)
        saved = _advice.record_saved(model, step, (x,))
        cached = sorted((sorted(modules), nbytes)
                        for modules, nbytes in saved.autocast.cached_casts())
        self.assertEqual(cached, [(["0"], 128), (["0"], 8192), (["1"], 128), (["2"], 8)])
        # As torch's autocast does it: in the measured step, blocks of those sizes made in
        # the forward and freed before its backward (the second layer's weight's cast, which
        # its node saves, lives on into backward).
        model.forward = torch.autocast("cpu", dtype=torch.bfloat16)(model.forward)
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            with trainscope.profile(prefix, model=model, optimizer=optimizer, warmup=1,
                                    active=1) as prof:
                for _ in range(2):
                    step(x)
                    prof.step()
            curve = trainscope._trainscope.MemoryCurve(prefix)
            backward = curve.phase_start("backward")
            freed = sorted(size for size, allocated, released in curve.blocks_made_in("forward")
                           if size in (8, 128, 8192) and released is not None and
                           released < backward)
        self.assertEqual(freed, [8, 128, 128, 8192])

    @unittest.skipIf(DEVICE != "cpu", "the kernels' temporaries are probed on the CPU")
    @unittest.skipIf(importlib.util.find_spec("torchvision") is None, "needs torchvision")
    def test_resnet18s_peak_is_predicted_within_1_percent(self):
        self.assertLess(abs(self.peak_error("resnet18.py")), 0.01)

    def test_code_a_checkpoint_runs_again_in_backward_is_said_to_be_left_out(self):
        # Its saved tensors and temporaries under autocast, at the recomputation, are not
        # modelled (checkpointed_model.py's peak was 6 % high): the what-if says so, naming the
        # outermost code run again, whichever checkpoint it is (reentrant, or not: the model
        # whole, with a reentrant one inside).
        for entry, code in (("checkpointed.py", "second"),
                            ("checkpointed_nonreentrant.py", "second"),
                            ("checkpointed_model.py", "the model"), ("linear_stack.py", None)):
            with self.subTest(entry=entry):
                what_ifs, result, _ = advise(os.path.join(PROJECT, entry))
                self.assertEqual(result.returncode, 0, result.stderr)
                (autocast,) = [w for w in what_ifs
                               if w["change"] == "bfloat16 autocast of the forward"]
                said = f"the forward of {code} run again in backward (a checkpoint) under " \
                    "autocast" if code else ""
                if DEVICE == "cpu":  # CUDA's adds its kernels' workspaces
                    self.assertEqual(autocast["not_predicted"], said)
                else:
                    self.assertTrue(autocast["not_predicted"].startswith(said), autocast)

    def test_an_operation_is_described_with_the_gradient_its_node_was_given(self):
        from trainscope.advisor import autocast as _autocast
        from trainscope.advisor import kernel_probe
        model = nn.Linear(16, 4).to(DEVICE)
        out = model(torch.randn(8, 16, device=DEVICE))
        operation = kernel_probe.operation_of(out.grad_fn)
        self.assertEqual(operation[0], "AddmmBackward0")
        self.assertEqual(operation[1], (((8, 16), (16, 1)), ((16, 4), (1, 16))))
        self.assertEqual(operation[3], (True, False, True))  # its input takes no gradient
        entry = ["", "AddmmBackward0", operation]
        handle = out.grad_fn.register_hook(
            lambda given, gradients: _autocast._gradient_reached(entry, gradients))
        out.sum().backward()
        handle.remove()
        self.assertEqual(entry[2][4], ((8, 4), (0, 0)))  # a sum's gradient: expanded
        self.assertIsNone(kernel_probe.operation_of(torch.relu(out).grad_fn))

    def test_an_operation_that_cannot_run_leaves_no_temporaries_and_raises_nothing(self):
        from trainscope.advisor import kernel_probe
        wrong = ("MmBackward0", (((8, 16), (16, 1)), ((5, 4), (4, 1))), (), (True, True))
        import io
        said = io.StringIO()
        self.assertEqual(kernel_probe.temporaries([wrong], said), {})
        self.assertEqual(said.getvalue().count("\n"), 1)
        self.assertIn("the bfloat16 kernels' own temporaries were not measured (",
                      said.getvalue())
        self.assertIn("autocast's predicted peak leaves them out", said.getvalue())


if __name__ == "__main__":
    unittest.main()
