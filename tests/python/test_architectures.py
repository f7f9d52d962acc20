# SPDX-License-Identifier: Apache-2.0
"""Real architectures on PyTorch 2.x (transformers' GPT-2 and Llama, timm's ViT, built from
their configurations with random weights; project/architectures.py), trained by AdamW under
bf16 autocast with clipping, profiled in the user's loop and through the entry point. The
weights, gradients and optimizer state are PyTorch's own tensors byte for byte, the peak and
what is alive at it are c10's own reports (the reference meter), the module paths are
PyTorch's names and the frames the script's lines. Registered by ctest where the Python has
transformers and timm (the torch2 preset's environment)."""

import os
import sys
import tempfile
import unittest

import torch

import bounded
import reference_meter
import trainscope
from test_python_host import PROJECT, Replay, rows, storage_of, tagged_line

import architectures

# A module of each model as PyTorch names it, and the line of the script its forward runs on.
EXPECTED = {
    "gpt2": ("transformer.h.0.attn.c_attn", "lm-forward"),
    "llama": ("model.layers.0.self_attn.q_proj", "lm-forward"),
    "vit": ("blocks.0.attn.qkv", "vit-forward"),
}


def users_loop(architecture, meter=None, prefix=None):
    """Three steps of the architecture's training step (one warm-up, then the memory step and a
    timed one), observed by trainscope.profile when `prefix` is given, or marked for the
    reference meter at the points where TrainScope's session sees them."""
    model, inputs = architectures.build(architecture)
    step = architectures.step_of(model)
    optimizer = step.optimizer
    marks, blocks = {}, {}

    def mark(name):
        if meter is not None:
            marks.setdefault(name, []).append(meter.mark())

    # What exists before both meters: the weights and the buffers (Llama's rotary inv_freq).
    existing = sum(dict(storage_of(t) for t in [*model.parameters(), *model.buffers()])
                   .values())
    if meter is not None:
        meter.start()
    profiling = trainscope.profile(prefix, model=model, optimizer=optimizer, warmup=1,
                                   active=2) if prefix else None
    prof = profiling.__enter__() if profiling else None
    try:
        for index in range(3):
            if index == 1:
                mark("begin")
            optimizer.zero_grad()  # PyTorch 2.x's default: the gradients are set to None
            with torch.autocast("cpu", dtype=torch.bfloat16):
                if index == 1:
                    mark("forward")
                loss = architectures.loss_of(model, inputs)
            if index == 1:
                mark("backward")
            loss.backward()
            del loss
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if index == 1:  # the memory step's: set to None, each step's are new blocks
                blocks["gradients"] = {storage_of(p.grad) for p in model.parameters()
                                       if p.grad is not None}
                gradient_bytes = {name: p.grad.nelement() * p.grad.element_size()
                                  for name, p in model.named_parameters()
                                  if p.grad is not None}
                mark("gradients")
            optimizer.step()
            if index == 1:
                mark("end")
                blocks["state"] = {storage_of(t) for s in optimizer.state.values()
                                   for t in s.values() if torch.is_tensor(t)}
            if prof is not None:
                prof.step()
    finally:
        if profiling:
            profiling.__exit__(None, None, None)
        if meter is not None:
            meter.stop()
    weights = {name: p.nelement() * p.element_size() for name, p in model.named_parameters()}
    return model, (prof.figures if prof else None), marks, blocks, existing, weights, \
        gradient_bytes


class RealArchitectures(unittest.TestCase):
    def check_users_loop(self, architecture):
        meter = reference_meter.Meter("cpu")
        _, _, marks, blocks, existing, _, _ = users_loop(architecture, meter=meter)
        replay = Replay(meter.reports(), existing)
        peak, at = replay.peak(marks["begin"][0], marks["end"][0])
        # The gradients and the state by the reports that allocated them (an address may hold
        # other blocks before or after).
        gradient_blocks = replay.blocks_at(marks["gradients"][0],
                                           {address for address, _ in blocks["gradients"]})
        state = replay.blocks_at(marks["end"][0], {address for address, _ in blocks["state"]})

        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            model, figures, _, _, _, weights, gradients = users_loop(architecture,
                                                                     prefix=prefix)
            memory = prefix + ".memory.sqlite"
            sizes = dict(rows(memory, "SELECT key, size_bytes FROM misc_sizes"))
            self.assertEqual(sizes["peak_usage_bytes"], peak)
            self.assertEqual(sizes["peak_gradients_bytes"], replay.bytes_at(at, gradient_blocks))
            self.assertEqual(sizes["peak_optimizer_state_bytes"], replay.bytes_at(at, state))
            # Each tensor once, as PyTorch's named_parameters() lists it (a tied weight is one
            # entry under its first name), with its gradient's bytes.
            entries = rows(memory, "SELECT name, size_bytes, grad_size_bytes FROM weight_entries")
            self.assertEqual({name: size for name, size, _ in entries}, weights)
            self.assertEqual({name: grad for name, _, grad in entries}, gradients)
            self.assertEqual(figures["weight_bytes"], sum(weights.values()))
            module, tag = EXPECTED[architecture]
            modules = {m for (m,) in rows(prefix + ".time.sqlite",
                                          "SELECT module_path FROM trainscope_entry_modules")}
            self.assertIn(module, modules)
            # The forward's operations carry the script's line (the model's files are library
            # frames of their package).
            line = tagged_line(architectures.__file__, tag)
            frames = rows(prefix + ".time.sqlite",
                          "SELECT DISTINCT line_number FROM stack_frames "
                          "WHERE file_path LIKE '%architectures.py'")
            self.assertIn((line,), frames)
            libraries = rows(prefix + ".time.sqlite",
                             "SELECT COUNT(*) FROM trainscope_library_frames WHERE file_path "
                             "LIKE '%transformers%' OR file_path LIKE '%timm%'")
            self.assertGreater(libraries[0][0], 0)
        return model

    def check_entry_point(self, architecture):
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            env = dict(os.environ, TRAINSCOPE_TEST_ARCHITECTURE=architecture)
            result = bounded.run([sys.executable, "-m", "trainscope", "profile", "-q",
                                     "--warmup", "1", "--iterations", "2",
                                     os.path.join(PROJECT, "architectures.py"), "-o", prefix],
                                    capture_output=True, text=True, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("optimizer AdamW", result.stdout)
            model, inputs = architectures.build(architecture)
            step = architectures.step_of(model)
            step(*inputs)
            entries = rows(prefix + ".memory.sqlite",
                           "SELECT name, size_bytes FROM weight_entries")
            self.assertEqual(dict(entries), {name: p.nelement() * p.element_size()
                                             for name, p in model.named_parameters()})
            state = rows(prefix + ".memory.sqlite",
                         "SELECT size_bytes FROM misc_sizes WHERE key = "
                         "'peak_optimizer_state_bytes'")
            self.assertEqual(state[0][0], sum(storage_of(t)[1]
                                              for s in step.optimizer.state.values()
                                              for t in s.values() if torch.is_tensor(t)))

    def test_gpt2_whose_head_is_tied_to_its_embedding(self):
        model = self.check_users_loop("gpt2")
        self.assertIs(model.lm_head.weight, model.transformer.wte.weight)
        self.check_entry_point("gpt2")

    def test_llama(self):
        self.check_users_loop("llama")
        self.check_entry_point("llama")

    def test_vit(self):
        self.check_users_loop("vit")
        self.check_entry_point("vit")


if __name__ == "__main__":
    unittest.main()
