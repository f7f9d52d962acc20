# SPDX-License-Identifier: Apache-2.0
"""A torch.compile'd step observed in the user's loop (PyTorch 2.x, Inductor on the CPU).

Run as: PYTHONPATH=build/<preset>/python python3 tests/python/test_compiled.py [SUITE]"""

import itertools
import os
import re
import sqlite3
import sys
import tempfile
import unittest
import warnings

import torch
import bounded
import trainscope
from torch._dynamo.utils import counters
from torch.nn.modules import module as global_hooks

CLI = os.environ.get("TRAINSCOPE_CLI", "trainscope-cli")


class Block(torch.nn.Module):
    """A transformer MLP sub-block with its norm and residual: what a compiled GPT repeats."""

    def __init__(self, d=32):
        super().__init__()
        self.norm = torch.nn.LayerNorm(d)
        self.fc1 = torch.nn.Linear(d, 4 * d)
        self.fc2 = torch.nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm(x))))  # trainscope-test: block


def train(prefix=None, steps=4, in_place=False):
    """A compiled model trained `steps` steps with AdamW, observed when `prefix` is given:
    `model = torch.compile(model)`, or with `in_place` `model.compile()`. Returns what Dynamo
    made of it (its graph breaks and graphs), the warnings the loop gave and the parameters it
    ends with."""
    torch._dynamo.reset()
    counters.clear()
    torch.manual_seed(0)
    model = torch.nn.Sequential(Block(), Block())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    if in_place:
        model.compile()
        compiled = model
    else:
        compiled = torch.compile(model)
    inputs = [torch.randn(4, 32) for _ in range(steps)]

    def step(x):
        compiled(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()

    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        if prefix is None:
            for x in inputs:
                step(x)
        else:
            with trainscope.profile(prefix, model=compiled, optimizer=optimizer, warmup=2,
                                    active=steps - 2) as prof:
                for x in inputs:
                    step(x)
                    prof.step()
    return (dict(counters["graph_break"]), counters["stats"]["unique_graphs"],
            [str(w.message) for w in given], [p.detach().clone() for p in model.parameters()],
            prof.figures["summary"] if prefix else None)


class Broken(torch.nn.Module):
    """A model whose graph breaks in its forward (TorchDynamo compiles it in two parts)."""

    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 16)
        self.b = torch.nn.Linear(16, 16)

    def forward(self, x):  # trainscope-test: broken-forward
        y = self.a(x)
        torch._dynamo.graph_break()  # trainscope-test: the-break
        return self.b(y).relu()


class Attention(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class GptBlock(torch.nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.attn = torch.nn.LayerNorm(d), Attention(d, heads)
        self.ln2 = torch.nn.LayerNorm(d)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(d, 4 * d), torch.nn.GELU(),
                                       torch.nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Gpt(torch.nn.Module):
    """A GPT-style model: token and position embeddings, blocks of attention and MLP."""

    def __init__(self, vocab=128, d=32, heads=4, blocks=2, context=16):
        super().__init__()
        self.tok, self.pos = torch.nn.Embedding(vocab, d), torch.nn.Embedding(context, d)
        self.blocks = torch.nn.ModuleList(GptBlock(d, heads) for _ in range(blocks))
        self.ln, self.head = torch.nn.LayerNorm(d), torch.nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.norm = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.norm(self.conv(x)))
        return self.fc(x.mean(dim=(2, 3)))


def line_of(tag):
    with open(__file__) as f:
        return next(number for number, line in enumerate(f, 1)
                    if line.rstrip().endswith(f"trainscope-test: {tag}"))


def compiled_broken():
    """Broken, compiled afresh, and its SGD."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = torch.compile(Broken())
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def rows(path, sql):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def observe(prefix, model, optimizer, losses, warmup=1, clip=False):
    """A loop under trainscope.profile: for each of `losses` (callables), its backward, the
    gradients clipped with `clip`, the optimizer's step; the profile, once written."""
    with trainscope.profile(prefix, model=model, optimizer=optimizer, warmup=warmup,
                            active=len(losses) - warmup) as prof:
        for loss in losses:
            loss().backward()
            if clip:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            if optimizer is not None:
                optimizer.step()
                optimizer.zero_grad()
            prof.step()
    return prof


@unittest.skipUnless(hasattr(torch, "compile"), "torch.compile came with PyTorch 2.0")
class CompiledStep(unittest.TestCase):
    def test_an_eager_loop_observed_does_not_load_dynamo(self):
        # Compilations are read from Dynamo's own record when the reports are written, and only
        # where the user's code loaded Dynamo: observing an eager loop does not load it (about
        # two seconds on a small machine), nor install anything in it.
        script = """
import os, sys, tempfile, torch, trainscope
model = torch.nn.Linear(4, 4)
with tempfile.TemporaryDirectory() as folder:
    with trainscope.profile(os.path.join(folder, "run"), model=model, warmup=0, active=1) as p:
        model(torch.randn(2, 4)).sum().backward()
        p.step()
print("torch._dynamo" in sys.modules)
"""
        result = bounded.run([sys.executable, "-c", script], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "False")

    def test_an_eager_loop_whose_optimizer_loads_dynamo_does_not_load_inductors_generators(self):
        # PyTorch 2.x's optimizers import Dynamo in every process: observing such a loop waits
        # for a compilation before it imports Inductor's code generators (about 26 MiB and a
        # third of a second), and leaves no compile callback behind.
        script = """
import os, sys, tempfile, torch, trainscope
model = torch.nn.Linear(4, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with tempfile.TemporaryDirectory() as folder:
    with trainscope.profile(os.path.join(folder, "run"), model=model, optimizer=optimizer,
                            warmup=1, active=2) as p:
        for _ in range(3):
            model(torch.randn(2, 4)).sum().backward()
            optimizer.step()
            p.step()
dynamo = sys.modules.get("torch._dynamo")
print(dynamo is not None, "torch._inductor.codegen.cpp" in sys.modules,
      len(dynamo.callback_handler.start_callbacks) if dynamo else 0)
"""
        result = bounded.run([sys.executable, "-c", script], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        loaded, generators, callbacks = result.stdout.split()
        if loaded == "False":
            self.skipTest("this torch's optimizer does not load Dynamo")
        self.assertEqual((generators, callbacks), ("False", "0"))

    def test_provenance_begins_with_a_compilation_on_the_loops_thread_of_any_release(self):
        # Dynamo's compile-start callback: PyTorch 2.15 passes the compilation's facts,
        # earlier 2.x releases nothing; a lazy backward compiles on autograd's device thread,
        # where Inductor's settings would be patched apart from the loop's.
        import threading
        import torch._dynamo
        from trainscope import _kernels
        watch = _kernels.KernelWatch(None)
        try:
            watch.start()
            callback = torch._dynamo.callback_handler.start_callbacks[-1]
            elsewhere = threading.Thread(target=callback)
            elsewhere.start()
            elsewhere.join()
            self.assertFalse(watch.started)
            callback()
            self.assertTrue(watch.started)
        finally:
            watch.close()
        self.assertNotIn(callback, torch._dynamo.callback_handler.start_callbacks)

    def test_compilations_graph_breaks_and_recompilations_are_listed_by_step(self):
        # Warm-up and the memory step at batch 4, the timed steps at 4, 4 and then 8: the last
        # compiles again (the batch size is a guard), so its time is left out.
        model, optimizer = compiled_broken()
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            prof = observe(prefix, model, optimizer,
                           [lambda b=b: model(torch.randn(b, 16)).sum() for b in (4, 4, 4, 4, 8)])
            compiled = rows(prefix + ".time.sqlite",
                            "SELECT compile_id, kind, function, file_path, line_number, step, "
                            "duration_ms, graph_break, recompiled_because FROM "
                            "trainscope_compilations WHERE kind = 'forward' ORDER BY id")
            facts = dict(rows(prefix + ".time.sqlite",
                              "SELECT key, value FROM trainscope_metadata"))
            steps = [step for (step,) in rows(prefix + ".timeline.sqlite",
                                              "SELECT id FROM STEP_TIME ORDER BY id")]
        here = os.path.basename(__file__)
        forward, resumed = line_of("broken-forward"), line_of("the-break")
        # The first compilation and its graph break, and the function resumed after it, in the
        # warm-up (step 0); both compiled again in the last step, each with why.
        self.assertEqual([r[:6] for r in compiled], [
            ("0/0", "forward", "forward", here, forward, 0),
            ("1/0", "forward", f"forward, resumed at line {resumed}", here, resumed, 0),
            ("0/1", "forward", "forward", here, forward, steps[-1]),
            ("1/1", "forward", f"forward, resumed at line {resumed}", here, resumed, steps[-1]),
        ])
        self.assertTrue(all(r[6] > 0 for r in compiled))
        self.assertEqual(compiled[0][7], "User-inserted graph break. Message: None")
        self.assertEqual([bool(r[7]) for r in compiled], [True, False, True, False])
        self.assertEqual(compiled[0][8], "")
        self.assertIn("size mismatch at index 0. expected 4, actual 8", compiled[2][8])
        # The step that compiled is left out of the times, and the summary says it all.
        self.assertEqual(facts["timed_steps"], "2")
        self.assertIn(f"observed steps ({steps[-1]}); the timed steps that compiled are left "
                      f"out of the times", facts["compiled_steps"])
        summary = prof.figures["summary"]
        self.assertIn("  Compiled        ", summary)
        self.assertIn(f"graph breaks 2, recompilations 2\n", summary)
        self.assertIn(f"    graph break in forward ({here}:{forward}): ", summary)
        self.assertIn(f"    recompiled forward ({here}:{forward}): tensor 'x' size mismatch",
                      summary)

    def test_each_kernel_is_an_operation_of_the_users_module_and_line(self):
        import torch._functorch.config as functorch_config
        import torch._inductor.config as inductor_config
        from torch._inductor import debug
        from torch._inductor.codecache import PyCodeCache
        settings = (inductor_config.trace.provenance_tracking_level,
                    inductor_config.fx_graph_cache, functorch_config.enable_autograd_cache)
        tracer = debug.set_kernel_post_grad_provenance_tracing
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            summary = train(prefix, steps=5)[4]
            shown = bounded.run([CLI, "show", prefix + ".time.sqlite"], capture_output=True,
                                   text=True)
            with sqlite3.connect(f"file:{prefix}.time.sqlite?mode=ro", uri=True) as db:
                kernels = db.execute(
                    "SELECT e.id, e.operation_name, e.forward_ms, e.backward_ms, "
                    "COALESCE(m.module_path, ''), k.graph, k.fused_operations, k.calls, "
                    "k.unattributed_because, k.input_shapes FROM trainscope_compiled_kernels k "
                    "JOIN run_time_entries e ON e.id = k.entry_id LEFT JOIN "
                    "trainscope_entry_modules m ON m.entry_id = e.id ORDER BY e.id").fetchall()
                region = db.execute("SELECT id FROM run_time_entries WHERE operation_name = "
                                    "'Torch-Compiled Region: 0/0'").fetchall()
                lines = dict(db.execute("SELECT entry_id, file_path || ':' || line_number FROM "
                                        "stack_frames WHERE ordering = 0"))
            with sqlite3.connect(f"file:{prefix}.timeline.sqlite?mode=ro", uri=True) as db:
                calls = db.execute(
                    "SELECT s.value, CAST(p.startNs AS INTEGER), CAST(p.endNs AS INTEGER) FROM "
                    "PYTORCH_API p JOIN STRING_IDS s ON s.id = p.name WHERE s.value IN "
                    "('CompiledFunction', 'CompiledFunctionBackward', 'extern_kernels.addmm', "
                    "'extern_kernels.mm')").fetchall()
        # Each linear layer's matrix product, forward (one addmm each) and backward (two mm
        # each: for the input's gradient and the weight's), is a kernel row of its own module,
        # placed right after its region, every one at Block.forward's line.
        self.assertEqual(region[0][0] + 1, kernels[0][0])
        layers = [f"{b}.{fc}" for b in (0, 1) for fc in ("fc1", "fc2")]
        forward_mm = [k[4] for k in kernels if k[1] == "extern_kernels.addmm"]
        backward_mm = sorted(k[4] for k in kernels if k[1] == "extern_kernels.mm")
        self.assertEqual(forward_mm, layers)
        self.assertEqual(backward_mm, sorted(layers * 2))
        self.assertTrue(all(k[5] == "forward" and k[3] is None and k[2] > 0
                            for k in kernels if k[1] == "extern_kernels.addmm"))
        self.assertTrue(all(k[5] == "backward" and k[2] == 0 and k[3] > 0
                            for k in kernels if k[1] == "extern_kernels.mm"))
        self.assertTrue(all(k[6] == "aten.addmm" for k in kernels if k[1].endswith("addmm")))
        # Their inputs' shapes, as Inductor records them: the bias, the activations (batch 4)
        # and the weight, transposed.
        self.assertEqual([k[9] for k in kernels if k[1] == "extern_kernels.addmm"],
                         ["128;4,32;32,128", "32;4,128;128,32"] * 2)
        # Inductor's own kernels: the norms and GELUs fused, each in its block.
        fused = {k[1]: k for k in kernels if k[1].startswith("cpp_fused_")}
        self.assertTrue(any("aten.gelu" in k[6].split(",") and k[5] == "forward"
                            for k in fused.values()), fused)
        self.assertTrue(any("aten.native_layer_norm" in k[6].split(",") and k[4] == "0.norm"
                            for k in fused.values()), fused)
        block = f"{os.path.basename(__file__)}:{line_of('block')}"
        self.assertEqual({lines[k[0]] for k in kernels}, {block})
        self.assertTrue(all(k[7] == 1 and k[8] == "" for k in kernels))
        # The memory step's timeline holds each call, within its compiled function's span.
        spans = {name: (start, end) for name, start, end in calls if name.startswith("Comp")}
        self.assertEqual(sorted(name for name, *_ in calls if name.startswith("extern")),
                         ["extern_kernels.addmm"] * 4 + ["extern_kernels.mm"] * 8)
        for name, start, end in calls:
            if name.startswith("extern"):
                outer = spans["CompiledFunction" if name.endswith("addmm")
                              else "CompiledFunctionBackward"]
                self.assertTrue(outer[0] <= start <= end <= outer[1], (name, start, end, outer))
        # The summary says how much kernel time lies on a module and a line, as the file says.
        line = next(line for line in summary.splitlines() if line.startswith("  Kernels "))
        self.assertRegex(line, r"^  Kernels         %d of compiled regions, [0-9.]+ ms \(forward "
                               r"[0-9.]+, backward [0-9.]+\); 100\.0%% of it on a module and "
                               r"line of the project$" % len(kernels))
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn(line + "\n", shown.stdout)
        # Nothing left behind: Inductor's settings and tracer, and the generated code's kernels.
        self.assertEqual((inductor_config.trace.provenance_tracking_level,
                          inductor_config.fx_graph_cache, functorch_config.enable_autograd_cache),
                         settings)
        self.assertIs(debug.set_kernel_post_grad_provenance_tracing, tracer)
        for module in PyCodeCache.modules:
            for name, value in vars(module).items():
                self.assertNotIsInstance(value, (trainscope._trainscope.KernelCall,
                                                 trainscope._kernels._TimedNamespace), name)

    def test_a_gpt_and_a_convolutional_model_compiled_are_placed_on_modules_and_lines(self):
        # A GPT-style model (AdamW, gradient clipping, cross-entropy) and a convolutional one:
        # at least 99% of their kernels' time on a module and a line of this file, each
        # linear layer's and the convolution's products on their own modules.
        def gpt():
            model = Gpt()
            data = torch.randint(0, 128, (4, 17))
            return model, lambda m: torch.nn.functional.cross_entropy(
                m(data[:, :-1]).reshape(-1, 128), data[:, 1:].reshape(-1))

        def convnet():
            model, data = ConvNet(), torch.randn(4, 3, 8, 8)
            return model, lambda m: m(data).logsumexp(dim=1).mean()

        for make in (gpt, convnet):
            with self.subTest(model=make.__name__), tempfile.TemporaryDirectory() as folder:
                torch._dynamo.reset()
                torch.manual_seed(0)
                model, loss_of = make()
                optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
                compiled = torch.compile(model)
                prefix = os.path.join(folder, "run")
                observe(prefix, compiled, optimizer, [lambda: loss_of(compiled)] * 4, clip=True)
                kernels = rows(prefix + ".time.sqlite",
                               "SELECT e.operation_name, e.forward_ms + IFNULL(e.backward_ms, 0), "
                               "IFNULL(m.module_path, ''), f.file_path, k.graph FROM "
                               "trainscope_compiled_kernels k JOIN run_time_entries e ON e.id = "
                               "k.entry_id LEFT JOIN trainscope_entry_modules m ON m.entry_id = "
                               "e.id LEFT JOIN stack_frames f ON f.entry_id = e.id AND "
                               "f.ordering = 0")
                total = sum(k[1] for k in kernels)
                placed = sum(k[1] for k in kernels if k[3] == os.path.basename(__file__))
                self.assertGreaterEqual(placed, 0.99 * total, kernels)
                products = {k[2] for k in kernels if k[0].startswith("extern_kernels.")}
                if make is gpt:
                    layers = {f"blocks.{b}.{layer}" for b in (0, 1)
                              for layer in ("attn.qkv", "attn.proj", "mlp.0", "mlp.2")}
                    self.assertLessEqual(layers | {"head"}, products)
                else:
                    self.assertLessEqual({"conv", "fc"}, products)
                    # Its backward: a fallback to ATen that the generated code calls by
                    # torch.ops, at the convolution's module too.
                    self.assertEqual({(k[0], k[4]) for k in kernels if k[2] == "conv"},
                                     {("extern_kernels.convolution", "forward"),
                                      ("torch.ops.aten.convolution_backward.default",
                                       "backward")})

    def test_an_entry_points_compiled_model_is_seen_kernel_by_kernel(self):
        entry = """import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)
    def forward(self, x):
        return self.fc(x).relu()
def model_provider():
    return torch.compile(Net())
def input_provider():
    return (torch.randn(4, 16),)
def iteration_provider(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    def step(x):
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
    return step
"""
        with tempfile.TemporaryDirectory() as folder:
            path, prefix = os.path.join(folder, "entry.py"), os.path.join(folder, "run")
            with open(path, "w") as f:
                f.write(entry)
            result = bounded.run([sys.executable, "-m", "trainscope", "profile", "-q",
                                     "--warmup", "1", "--iterations", "3", path, "-o", prefix],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("% of it on a module and line of the project", result.stdout)
            kernels = rows(prefix + ".time.sqlite",
                           "SELECT e.operation_name, m.module_path, f.file_path, f.line_number, "
                           "k.graph FROM trainscope_compiled_kernels k JOIN run_time_entries e ON "
                           "e.id = k.entry_id LEFT JOIN trainscope_entry_modules m ON m.entry_id = "
                           "e.id JOIN stack_frames f ON f.entry_id = e.id AND f.ordering = 0")
        # The linear layer's product, forward and backward (the weight's gradient), at
        # Net.forward's line.
        self.assertIn(("extern_kernels.addmm", "fc", "entry.py", 7, "forward"), kernels)
        self.assertIn(("extern_kernels.mm", "fc", "entry.py", 7, "backward"), kernels)
        self.assertTrue(all(k[1:4] == ("fc", "entry.py", 7) for k in kernels
                            if k[0].startswith("extern_kernels")), kernels)

    def test_a_compiled_step_function_is_not_compiled_again_because_of_the_session(self):
        # TorchDynamo guards the compiled code on how many global module hooks there are: the
        # session's went away after the memory step, and the first timed step compiled again
        # (811.9 ms read as a step of about a millisecond).
        entry = """import torch
def model_provider():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
def input_provider(batch_size=8):
    return (torch.randn(batch_size, 32),)
def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters())
    @torch.compile
    def step(x):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
    return step
"""
        with tempfile.TemporaryDirectory() as folder:
            path, prefix = os.path.join(folder, "entry.py"), os.path.join(folder, "run")
            with open(path, "w") as f:
                f.write(entry)
            result = bounded.run([sys.executable, "-m", "trainscope", "profile", "-q",
                                  "--warmup", "1", "--iterations", "3", path, "-o", prefix],
                                 capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            compiled = rows(prefix + ".time.sqlite",
                            "SELECT step, recompiled_because FROM trainscope_compilations")
            noted = rows(prefix + ".time.sqlite", "SELECT value FROM trainscope_metadata "
                                                  "WHERE key = 'compiled_steps'")
        self.assertTrue(compiled)  # the warm-up compiled it
        self.assertEqual([c for c in compiled if c[0] > 0], [], compiled)
        self.assertEqual(noted, [])

    def test_advise_on_a_compiled_model_records_its_eager_run_and_says_so(self):
        # Dynamo traced the advisor's hooks into the compiled graph, where they cannot run:
        # advise failed on every compiled entry point and blamed the user's step.
        entry = """import torch
def model_provider():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
def input_provider(batch_size=8):
    return (torch.randn(batch_size, 32),)
def iteration_provider(model):
    optimizer = torch.optim.AdamW(model.parameters())
    model.compile()
    def step(x):
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
    return step
"""
        with tempfile.TemporaryDirectory() as folder:
            path, prefix = os.path.join(folder, "entry.py"), os.path.join(folder, "run")
            with open(path, "w") as f:
                f.write(entry)
            result = bounded.run([sys.executable, "-m", "trainscope", "advise", "-q", path,
                                  "-o", prefix], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            said = rows(prefix + ".advice.sqlite",
                        "SELECT change, not_predicted FROM trainscope_what_ifs")
        self.assertIn("GELU -> ReLU", [change for change, _ in said])
        for change, not_predicted in said:
            self.assertIn("the step is compiled (torch.compile): what it saves for backward was "
                          "recorded from its eager run", not_predicted, change)

    def test_the_kernels_of_a_broken_graph_follow_the_call_they_ran_in(self):
        model, optimizer = compiled_broken()
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            observe(prefix, model, optimizer, [lambda: model(torch.randn(4, 16)).sum()] * 4)
            entries = rows(prefix + ".time.sqlite",
                           "SELECT e.operation_name, k.compile_id, k.graph, m.module_path, "
                           "f.line_number FROM run_time_entries e LEFT JOIN "
                           "trainscope_compiled_kernels k ON k.entry_id = e.id LEFT JOIN "
                           "trainscope_entry_modules m ON m.entry_id = e.id LEFT JOIN stack_frames "
                           "f ON f.entry_id = e.id AND f.ordering = 0 ORDER BY e.id")
        # Dynamo compiled the forward in two regions around the break, and the second (the
        # function resumed after it) runs inside the first's call: every kernel of both follows
        # that call, forward and backward. Layer a's product is the first region's, at its
        # line; layer b's and the ReLU the second's.
        names = [e[0] for e in entries]
        first = names.index("Torch-Compiled Region: 0/0")
        kernels = list(itertools.takewhile(lambda e: e[1] is not None, entries[first + 1:]))
        self.assertEqual(len(kernels), sum(e[1] is not None for e in entries))
        self.assertNotIn("Torch-Compiled Region: 1/0", names)  # never called at the top level
        before, after = line_of("broken-forward") + 1, line_of("the-break") + 1
        self.assertEqual({(e[2], e[3], e[4]) for e in kernels if e[1] == "0/0"},
                         {("forward", "a", before), ("backward", "a", before)})
        second = {(e[2], e[3], e[4]) for e in kernels if e[1] == "1/0"}
        self.assertTrue({("forward", "b", after), ("backward", "b", after)} <= second, second)
        self.assertLessEqual({e[3] for e in kernels if e[1] == "1/0"}, {"b", None})

    def test_code_compiled_before_the_session_stays_one_operation_and_says_why(self):
        torch._dynamo.reset()
        model = torch.compile(Block())
        model(torch.randn(4, 32)).sum().backward()  # compiled and run before observing
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            prof = observe(prefix, model, None, [lambda: model(torch.randn(4, 32)).sum()] * 2,
                           warmup=0)
            tables = {t for (t,) in rows(prefix + ".time.sqlite",
                                         "SELECT name FROM sqlite_master")}
            note = rows(prefix + ".time.sqlite",
                        "SELECT value FROM trainscope_metadata WHERE key = 'compiled_kernels'")
        self.assertNotIn("trainscope_compiled_kernels", tables)
        self.assertEqual(note, [("1 compiled regions ran code compiled before the session "
                                 "started, without its kernels' provenance: each is one "
                                 "operation",)])
        self.assertIn("  Kernels         Note: 1 compiled regions ran code compiled before",
                      prof.figures["summary"])

    def test_compiling_in_the_memory_step_is_never_an_operations_time(self):
        # The memory step's batch differs from the warm-up's and the timed steps': it compiles a
        # region of its own (0/1, forward and lazily its backward) that no timed step runs. Its
        # time in the memory step is mostly compiling: it was once reported as the region's
        # (hundreds of times the iteration).
        for whole_step in (False, True):
            with self.subTest(whole_step=whole_step), tempfile.TemporaryDirectory() as folder:
                torch._dynamo.reset()
                torch.manual_seed(0)
                block = Block()
                optimizer = torch.optim.SGD(block.parameters(), lr=0.01)
                model = torch.compile(block, dynamic=False)

                def train(x):
                    loss = model(x).sum()
                    loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
                step = torch.compile(train, dynamic=False) if whole_step else train
                prefix = os.path.join(folder, "run")
                with trainscope.profile(prefix, model=model, optimizer=optimizer, warmup=1,
                                        active=3) as prof:
                    for batch in (8, 4, 8, 8):
                        step(torch.randn(batch, 32))
                        prof.step()
                entries = rows(prefix + ".time.sqlite",
                               "SELECT operation_name, forward_ms, backward_ms FROM "
                               "run_time_entries")
                note = rows(prefix + ".time.sqlite", "SELECT value FROM trainscope_metadata "
                                                     "WHERE key = 'differing_steps'")
                summary = prof.figures["summary"]
                operations = sum(f + (b or 0) for _, f, b in entries)
                iteration_ms = float(re.search(r"Iteration \(wall\) ([\d.]+) ms",
                                               summary).group(1))
                self.assertLess(operations, iteration_ms, summary)
                memory_only = [e for e in entries if e[0] == "Torch-Compiled Region: 0/1"]
                if memory_only:  # the compiled module's own region: said, and not timed
                    self.assertEqual([(f, b or 0) for _, f, b in memory_only], [(0, 0)])
                    self.assertEqual(len(note), 1, summary)
                    self.assertRegex(note[0][0], r"and \d+ that ran only in the memory step "
                                                 r"are not timed \(")

    def test_compiling_is_no_operation_and_no_operations_time(self):
        # The memory step compiles the block (its forward, and its backward graph lazily inside
        # the region's backward node) and is the only observed step: the report's times are its
        # own. Compiling takes far longer than the block's operations; it was once the region's
        # backward time, and Dynamo's tracing calls were operations of the step.
        torch._dynamo.reset()
        model = torch.compile(Block())
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            observe(prefix, model, None, [lambda: model(torch.randn(4, 32)).sum()], warmup=0)
            entries = rows(prefix + ".time.sqlite", "SELECT operation_name, forward_ms, "
                                                    "backward_ms FROM run_time_entries")
            compiling = rows(prefix + ".time.sqlite", "SELECT kind, duration_ms, step FROM "
                                                      "trainscope_compilations")
        self.assertEqual(sorted(kind for kind, _, _ in compiling), ["backward", "forward"])
        self.assertTrue(all(step == 1 for _, _, step in compiling), compiling)
        operations = sum(f + (b or 0) for _, f, b in entries)
        backward_compiling = sum(ms for kind, ms, _ in compiling if kind == "backward")
        self.assertLess(operations, backward_compiling, entries)
        # The step's own calls only: the region, the kernels Inductor generated, the loss.
        self.assertLess(len(entries), 20, [name for name, _, _ in entries])

    def test_another_backend_compiled_in_the_session_is_no_code_of_inductors(self):
        # Its regions have no kernels of Inductor's to time: nothing is said of code generated
        # before the session (the note once said so of Inductor, which never ran).
        for backend in ("eager", "aot_eager"):
            with self.subTest(backend=backend), tempfile.TemporaryDirectory() as folder:
                torch._dynamo.reset()
                model = torch.compile(Block(), backend=backend)
                prefix = os.path.join(folder, "run")
                prof = observe(prefix, model, None,
                               [lambda: model(torch.randn(4, 32)).sum()] * 3)
                note = rows(prefix + ".time.sqlite", "SELECT value FROM trainscope_metadata "
                                                     "WHERE key = 'compiled_kernels'")
                self.assertEqual(note, [])
                self.assertNotIn("Inductor", prof.figures["summary"])
                self.assertNotIn("before the session", prof.figures["summary"])

    def test_the_users_compile_cache_gets_nothing_from_the_session(self):
        # Inductor's FX graph cache, in a folder of the test's own: a plain compiled run fills
        # it; the same run observed compiles outside it (and so has provenance).
        script = """
import os, sys, torch, trainscope
model = torch.compile(torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()))
observe = sys.argv[1] == "observed"
with (trainscope.profile(os.path.join(sys.argv[2], "run"), model=model, warmup=1, active=1)
      if observe else __import__("contextlib").nullcontext()) as prof:
    for _ in range(2):
        model(torch.randn(2, 8)).sum().backward()
        if observe:
            prof.step()
"""
        for mode, fills in (("observed", False), ("plain", True)):
            with self.subTest(mode=mode), tempfile.TemporaryDirectory() as folder:
                cache = os.path.join(folder, "cache")
                env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache)
                result = bounded.run([sys.executable, "-c", script, mode, folder], env=env,
                                        capture_output=True, text=True)
                self.assertEqual(result.returncode, 0, result.stderr)
                graphs = [f for _, _, files in os.walk(os.path.join(cache, "fxgraph"))
                          for f in files]
                self.assertEqual(bool(graphs), fills, graphs)

    def test_the_activations_a_compiled_graph_saves_are_its_kernels_on_their_modules(self):
        # The same two blocks eager and compiled: what the compiled forward saves for backward
        # is attributed to the kernel that wrote it, on that kernel's module, and `compare`
        # shows the modules whose activations compiling changed.
        def activations(prefix, compiled):
            torch._dynamo.reset()
            torch.manual_seed(0)
            model = torch.nn.Sequential(Block(), Block())
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            run = torch.compile(model) if compiled else model
            data = [torch.randn(8, 32) for _ in range(4)]
            observe(prefix, run, optimizer, [lambda x=x: run(x).sum() for x in data], warmup=2)
            entries = rows(f"{prefix}.memory.sqlite",
                           "SELECT a.operation_name, a.size_bytes, o.operation_number, "
                           "COALESCE(m.module_path, '') FROM activation_entries a LEFT JOIN "
                           "trainscope_activation_operations o ON o.entry_id = a.id LEFT JOIN "
                           "trainscope_entry_modules m ON m.entry_type = 2 AND m.entry_id = a.id")
            named = dict(rows(f"{prefix}.time.sqlite",
                              "SELECT id, operation_name FROM run_time_entries"))
            kernels = {entry for (entry,) in rows(f"{prefix}.time.sqlite",
                                                  "SELECT entry_id FROM "
                                                  "trainscope_compiled_kernels")} \
                if compiled else set()
            return entries, named, kernels

        def by_module(entries):
            modules = {m for *_, m in entries if m}
            return {m: sum(b for _, b, _, path in entries
                           if path == m or path.startswith(m + ".")) for m in modules}

        with tempfile.TemporaryDirectory() as folder:
            eager_prefix, compiled_prefix = (os.path.join(folder, n) for n in ("eager", "comp"))
            eager, _, _ = activations(eager_prefix, False)
            compiled, named, kernels = activations(compiled_prefix, True)
            compared = bounded.run([CLI, "compare", eager_prefix, compiled_prefix,
                                       "--max-time-increase", "1000000",
                                       "--max-memory-increase", "1000000"],
                                      capture_output=True, text=True)
        # Every activation but the loss's is a kernel's, numbered as its run time row.
        for name, size, number, module in compiled:
            self.assertEqual(named[number], name)
            if name != "aten::sum":
                self.assertIn(number, kernels, name)
                self.assertTrue(module, name)
        # Each fc1's output is what GELU's backward needs, eager and compiled, on that layer.
        width = 8 * 4 * 32 * 4  # (8, 128) float32
        for fc1 in ("0.fc1", "1.fc1"):
            self.assertEqual(by_module(eager)[fc1], width)
            self.assertEqual(by_module(compiled)[fc1], width)
        # `compare` lists each module whose activations differ, and no other, with them.
        self.assertEqual(compared.returncode, 0, compared.stderr)
        section = compared.stdout.split("Modules (inclusive of their submodules)\n")[1]
        section = section.split("\n\n")[0]
        listed, module = set(), None
        for line in section.splitlines():
            if not line.startswith("    "):
                module = line.strip()
            elif line.split()[0] == "activation_bytes":
                listed.add(module)
        before, after = by_module(eager), by_module(compiled)
        changed = {m for m in before.keys() | after.keys() if before.get(m, 0) != after.get(m, 0)}
        self.assertEqual(listed, changed)
        self.assertTrue(changed)

    def test_the_compiled_model_is_compiled_and_trained_as_without_trainscope(self):
        for in_place in (False, True):
            with self.subTest(in_place=in_place):
                self.check_compiled_as_without_trainscope(in_place)

    def check_compiled_as_without_trainscope(self, in_place):
        plain_breaks, plain_graphs, plain_warnings, plain, _ = train(in_place=in_place)
        filters = list(warnings.filters)
        with tempfile.TemporaryDirectory() as folder:
            prefix = os.path.join(folder, "run")
            breaks, graphs, given, observed, _ = train(prefix, in_place=in_place)
            # Observing adds no graph break and no graph (TrainScope's module hooks once broke
            # the graph at every module), and no warning of its own hooks.
            self.assertEqual((breaks, graphs), (plain_breaks, plain_graphs))
            self.assertEqual(breaks, {})
            self.assertEqual(given, plain_warnings)
            # The same training, to the bit.
            self.assertEqual(len(observed), len(plain))
            for a, b in zip(observed, plain):
                self.assertTrue(torch.equal(a, b))
            # Nothing left behind: no global hook, no warnings filter.
            self.assertEqual(list(warnings.filters), filters)
            self.assertFalse(global_hooks._global_forward_hooks)
            self.assertFalse(global_hooks._global_forward_pre_hooks)
            # The reports hold the compiled region, and name the parameters as the model does
            # (not as the compiled wrapper's `_orig_mod.`), and say that it ran compiled.
            with sqlite3.connect(f"file:{prefix}.time.sqlite?mode=ro", uri=True) as db:
                names = {name for (name,) in db.execute(
                    "SELECT operation_name FROM run_time_entries")}
                compiled = db.execute("SELECT value FROM trainscope_metadata "
                                      "WHERE key = 'compiled'").fetchall()
            self.assertTrue(any(name.startswith("Torch-Compiled Region") for name in names),
                            names)
            self.assertEqual(compiled, [("torch.compile",)])
            with sqlite3.connect(f"file:{prefix}.memory.sqlite?mode=ro", uri=True) as db:
                weights = [name for (name,) in db.execute("SELECT name FROM weight_entries")]
            self.assertIn("0.fc1.weight", weights)


if __name__ == "__main__":
    unittest.main()
