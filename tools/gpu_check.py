#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""TrainScope's figures on a GPU against PyTorch's own (tools/gpu-check runs this).

Scripts the activation-memory article's models - its transformer MLP with ReLU and GELU, and
its transformer block (LayerNorm, attention through scaled_dot_product_attention with 2 heads,
LayerNorm, MLP, two residual additions) - profiles each with `trainscope-cli memory` on the GPU
in bfloat16 (batch 2, sequence 4096, d 1024), and measures the same archive with PyTorch itself:
  - the bytes of the tensors saved for backward, counted by storage (the article's method),
  - the growth of torch.cuda.memory_allocated() across the forward pass and the loss,
  - torch.cuda.max_memory_allocated() over the same training iteration: the same warm-up,
    gradients set to None, forward, sum loss, backward, plain SGD step.
Each model's PyTorch figures are measured in a process of their own (this script with
--reference MODEL), as TrainScope's are: measured one after another in one process, a model
carries what the earlier ones left in the caching allocator, and its peak is not its own.

With --python-package DIR (the built trainscope package), the same models are also profiled in
eager mode by the Python host (`python3 -m trainscope profile tools/gpu_check_entry.py
--device cuda`), and PyTorch runs that entry point's own providers in a fresh process
(--reference-entry MODEL): two warm-up steps, then torch.cuda.max_memory_allocated() over one.

Prints Markdown tables and exits 1 when TrainScope's activations or peak differ from PyTorch's
allocator figures by a single byte.
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys

MODELS = ("mlp_relu", "mlp_gelu", "block_relu", "block_gelu")

if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        usage="gpu_check.py [--python-package DIR] TRAINSCOPE_CLI WORK_DIR | "
              "gpu_check.py --reference MODEL | gpu_check.py --reference-entry MODEL",
        description="TrainScope's memory figures on a GPU against PyTorch's own, on seed "
                    "004's MLP and transformer block (tools/gpu-check runs it).")
    parser.add_argument("cli", metavar="TRAINSCOPE_CLI", nargs="?",
                        help="the trainscope-cli to check")
    parser.add_argument("work", metavar="WORK_DIR", nargs="?",
                        help="where the archives and reports go")
    parser.add_argument("--reference", choices=MODELS,
                        help="only measure MODEL with PyTorch in this process and print its "
                             "figures as JSON (what the check runs for each model)")
    parser.add_argument("--reference-entry", choices=MODELS,
                        help="only run gpu_check_entry.py's providers for MODEL with PyTorch "
                             "in this process and print its peak as JSON")
    parser.add_argument("--python-package", metavar="DIR",
                        help="the folder holding the built trainscope package: profile the "
                             "models with the Python host too")
    ARGS = parser.parse_args()
    if ARGS.reference is None and ARGS.reference_entry is None and \
            (ARGS.cli is None or ARGS.work is None):
        parser.error("give TRAINSCOPE_CLI and WORK_DIR, or --reference MODEL, or "
                     "--reference-entry MODEL")

import torch  # noqa: E402 (after the arguments: --help needs no torch)
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

B, S, D, HEADS = 2, 4096, 1024, 2
WARMUP = 2  # trainscope-cli's default


class MLP(nn.Module):
    def __init__(self, act: str):
        super().__init__()
        self.lin_0 = nn.Linear(D, 4 * D)
        self.lin_1 = nn.Linear(4 * D, D)
        self.act = act

    def forward(self, x):
        x = self.lin_0(x)
        x = F.gelu(x) if self.act == "gelu" else F.relu(x)
        return self.lin_1(x)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin_qkv = nn.Linear(D, 3 * D)
        self.lin_out = nn.Linear(D, D)
        self.heads = HEADS

    def forward(self, x):
        b, s, d = x.size(0), x.size(1), x.size(2)
        # "b s (three n_h d_h) -> three b n_h s d_h", as views
        qkv = self.lin_qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal=True)
        return self.lin_out(y.transpose(1, 2).reshape(b, s, d))


class Block(nn.Module):
    def __init__(self, act: str):
        super().__init__()
        self.attn = Attention()
        self.mlp = MLP(act)
        self.norm_0 = nn.LayerNorm(D)
        self.norm_1 = nn.LayerNorm(D)

    def forward(self, x):
        x = self.attn(self.norm_0(x)) + x
        return self.mlp(self.norm_1(x)) + x


def saved_tensor_bytes(model, x):
    """The activation-memory article's measure: the storages saved for backward, parameters
    excluded."""
    ignored = {p.untyped_storage().data_ptr() for p in model.parameters()}
    saved = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in ignored:
            saved[ptr] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(x)
    del out
    return sum(saved.values())


def pytorch_figures(make):
    """The iteration trainscope-cli measures, run by PyTorch in eager mode: activations, the
    peak of each phase (forward with the loss, backward, optimizer step) and the article's
    count of saved tensors."""
    torch.manual_seed(0)
    model = make().to(device="cuda", dtype=torch.bfloat16)
    model.train()
    x = torch.randn(B, S, D, device="cuda", dtype=torch.bfloat16)
    params = list(model.parameters())
    optimizer = torch.optim.SGD(params, lr=1e-3, foreach=False)

    def phase_peak():
        """The highest allocated total since the last call (or the iteration's start)."""
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        return peak

    def iteration():
        for p in params:
            p.grad = None
        phase_peak()
        before = torch.cuda.memory_allocated()
        out = model(x)
        loss = out.sum()
        grown = torch.cuda.memory_allocated() - before
        peaks = {"forward": phase_peak()}
        loss.backward()
        del loss, out
        peaks["backward"] = phase_peak()
        optimizer.step()
        peaks["optimizer"] = phase_peak()
        return grown, peaks

    for _ in range(max(WARMUP, 1)):
        iteration()
    grown, peaks = iteration()
    eager = saved_tensor_bytes(model, x)
    return grown, peaks, eager


def memory_figures(prefix):
    """A memory report's activations and peak, and its metadata."""
    db = sqlite3.connect(f"file:{prefix}.memory.sqlite?mode=ro", uri=True)
    activations = db.execute(
        "SELECT COALESCE(SUM(size_bytes), 0) FROM activation_entries").fetchone()[0]
    peak = db.execute(
        "SELECT size_bytes FROM misc_sizes WHERE key = 'peak_usage_bytes'").fetchone()[0]
    metadata = dict(db.execute("SELECT key, value FROM trainscope_metadata").fetchall())
    db.close()
    return activations, peak, metadata


def trainscope_figures(cli, archive, prefix):
    """Activations, peak, the peak of each phase (from the timeline) and the run's metadata."""
    subprocess.run([cli, "profile", "--model", archive, "--input", f"{B}x{S}x{D}",
                    "--dtype", "bfloat16", "--device", "cuda", "--loss", "sum",
                    "--optimizer", "sgd", "--warmup", str(WARMUP), "--iterations", "1",
                    "-o", prefix, "-f", "-q"],
                   check=True)
    activations, peak, device = memory_figures(prefix)
    db = sqlite3.connect(f"file:{prefix}.timeline.sqlite?mode=ro", uri=True)
    peaks = dict(db.execute(
        "SELECT p.name, MAX(m.totalAllocated) FROM trainscope_phases p JOIN MEMORY_RECORD m "
        "ON m.timestamp BETWEEN p.start_ns AND p.end_ns GROUP BY p.name").fetchall())
    db.close()
    return activations, peak, peaks, device


def make_model(key):
    """A fresh instance of one of MODELS."""
    kind, act = key.split("_")
    return MLP(act) if kind == "mlp" else Block(act)


def reference(key):
    """PyTorch's figures of one model, in a fresh process (--reference), as JSON."""
    # As TrainScope runs models: no fusion into differentiable graphs (named so since 2.0).
    set_optimize = getattr(torch._C, "_set_graph_executor_optimize", None) or \
        torch._C._jit_set_graph_executor_optimize
    set_optimize(False)
    grown, phases, saved = pytorch_figures(lambda: make_model(key))
    print(json.dumps({"grown": grown, "phases": phases, "saved": saved}))


ENTRY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_check_entry.py")


def reference_entry(key):
    """gpu_check_entry.py's providers for one model, run by PyTorch alone as the Python host
    runs them (the model and inputs made on the CPU, then moved; two warm-up steps), with
    max_memory_allocated over the next step; and the bytes of the gradient seed that
    loss.backward() allocates (a bf16 scalar), as JSON."""
    os.environ["TRAINSCOPE_GPU_CHECK_MODEL"] = key
    sys.path.insert(0, os.path.dirname(ENTRY))
    import gpu_check_entry as entry
    model = entry.model_provider().to("cuda")
    inputs = tuple(t.to("cuda") for t in entry.input_provider())
    step = entry.iteration_provider(model)
    for _ in range(WARMUP):
        step(*inputs)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    step(*inputs)
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated()
    before = torch.cuda.memory_allocated()
    seed = torch.ones((), dtype=torch.bfloat16, device="cuda")
    seed_bytes = torch.cuda.memory_allocated() - before
    del seed
    print(json.dumps({"peak": peak, "seed": seed_bytes}))


def python_host_figures(package, key, prefix):
    """Activations and peak of `python3 -m trainscope profile` on gpu_check_entry.py."""
    env = dict(os.environ, TRAINSCOPE_GPU_CHECK_MODEL=key,
               PYTHONPATH=os.pathsep.join(filter(None, [package,
                                                        os.environ.get("PYTHONPATH")])))
    subprocess.run([sys.executable, "-m", "trainscope", "profile", ENTRY, "--device", "cuda",
                    "--warmup", str(WARMUP), "--iterations", "1", "-o", prefix, "-f", "-q"],
                   check=True, env=env)
    activations, peak, _ = memory_figures(prefix)
    return activations, peak


def fresh_reference(key, option="--reference"):
    """reference(key) (or reference_entry(key)) run by a Python process of its own; None (and
    why, on stderr) if it failed."""
    run = subprocess.run([sys.executable, os.path.abspath(__file__), option, key],
                         capture_output=True, text=True)
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        print(f"PyTorch's run of {key} failed: {lines[-1] if lines else run.returncode}",
              file=sys.stderr)
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def main():
    cli, work = ARGS.cli, ARGS.work
    os.makedirs(work, exist_ok=True)
    rows, phase_rows, host_rows, ok, device = [], [], [], True, {}
    for key, name, expected in [("mlp_relu", "MLP, ReLU", 83886080),
                                ("mlp_gelu", "MLP, GELU", 150994944),
                                ("block_relu", "block, ReLU, SDPA", 201523216),
                                ("block_gelu", "block, GELU, SDPA", 268632080)]:
        archive = os.path.join(work, key + ".pt")
        torch.jit.script(make_model(key)).save(archive)
        activations, peak, phases, device = trainscope_figures(cli, archive,
                                                               os.path.join(work, key))
        figures = fresh_reference(key)
        if figures is None:
            ok = False
            continue
        grown, torch_phases, saved = figures["grown"], figures["phases"], figures["saved"]
        torch_peak = max(torch_phases.values())
        same = activations == grown and peak == torch_peak
        ok = ok and same
        rows.append(f"| {name} | {expected:,} | {saved:,} | {grown:,} | {activations:,} | "
                    f"{torch_peak:,} | {peak:,} | {'yes' if same else 'NO'} |")
        phase_rows.append(f"| {name} | " + " | ".join(
            f"{torch_phases[p]:,} / {phases.get(p, 0):,}"
            for p in ("forward", "backward", "optimizer")) + " |")
        if ARGS.python_package:
            try:
                host_activations, host_peak = python_host_figures(
                    ARGS.python_package, key, os.path.join(work, key + "_python"))
            except subprocess.CalledProcessError as failed:
                print(f"The Python host's run of {key} failed ({failed.returncode})",
                      file=sys.stderr)
                ok = False
                continue
            entry = fresh_reference(key, "--reference-entry")
            if entry is None:
                ok = False
                continue
            # The host's activations run to the start of the autograd engine: the forward,
            # the loss and the gradient seed that loss.backward() makes.
            torch_activations = grown + entry["seed"]
            same = host_activations == torch_activations and host_peak == entry["peak"]
            ok = ok and same
            host_rows.append(f"| {name} | {torch_activations:,} | {host_activations:,} | "
                             f"{entry['peak']:,} | {host_peak:,} | {'yes' if same else 'NO'} |")
    print(f"Device: {device.get('device_name', '?')}, "
          f"{int(device.get('device_memory_bytes', 0)) / 2**30:.1f} GiB; "
          f"PyTorch {torch.__version__} (CUDA {torch.version.cuda}), "
          f"TrainScope {device.get('trainscope_version', '?')} built against LibTorch "
          f"{device.get('torch_version', '?')}; PyTorch's figures from a fresh process per "
          "model\n")
    print("| model (bfloat16, b=2, s=4096, d=1024) | the article | saved for backward "
          "(PyTorch) | allocated across forward + loss (PyTorch) | activations (TrainScope) | "
          "max_memory_allocated (PyTorch) | peak_usage_bytes (TrainScope) | equal |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print("\nThe peak of each phase, PyTorch / TrainScope (its timeline's highest "
          "totalAllocated within the phase):\n")
    print("| model | forward + loss | backward | optimizer step |")
    print("|---|---:|---:|---:|")
    print("\n".join(phase_rows))
    if ARGS.python_package:
        print("\nThe Python host (python3 -m trainscope profile tools/gpu_check_entry.py "
              "--device cuda: the same models in eager mode, the same iteration), against "
              "PyTorch running that entry point's providers in a fresh process:\n")
        print("| model | allocated across forward + loss + gradient seed (PyTorch) | "
              "activations (TrainScope) | max_memory_allocated (PyTorch) | "
              "peak_usage_bytes (TrainScope) | equal |")
        print("|---|---:|---:|---:|---:|---|")
        print("\n".join(host_rows))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    if ARGS.reference:
        reference(ARGS.reference)
    elif ARGS.reference_entry:
        reference_entry(ARGS.reference_entry)
    else:
        main()
