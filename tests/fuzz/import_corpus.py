# SPDX-License-Identifier: Apache-2.0
"""The hostile files of the import (make_corpus.py writes them into the corpus): torch.profiler
traces and memory snapshots, real and damaged.

The seeds: a trace recorded by the corpus's Python (make_profiler_trace.py: PyTorch 1.13 writes
the legacy trace; 2.x a full one and a snapshot), and a trace and a snapshot in PyTorch 2.x's
format made here from plain data (memory events, flows, Python calls, modules; segments and a
device trace), so that every Python writes both formats. The variants: cut-off JSON and gzip,
gzip with flipped bits, durations that are NaN, negative, text or huge, events out of order,
unknown kinds, flows and frees that point at nothing, a million-character name, nesting 100,000
deep, sizes and times at int64's ends, allocations adding up past any machine; pickles that would run code (GLOBAL, REDUCE, BUILD), memo references to nothing, a string
length of 2^62, a list that holds itself, items set on a list, cut-off and bit-flipped pickles.
"""
import copy
import gzip
import json
import os
import pickle
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDER = os.path.join(HERE, "..", "fixtures", "make_profiler_trace.py")


def plain_trace():
    """A small step in the format of PyTorch 2.x's export_chrome_trace."""
    events = [{"ph": "M", "name": "thread_name", "pid": 7, "tid": 7, "args": {"name": "main"}}]
    ts = 1000.0
    python_id = 0

    def call(name, dur, cat="cpu_op", **args):
        event = {"ph": "X", "cat": cat, "name": name, "pid": 7, "tid": 7, "ts": ts, "dur": dur,
                 "args": args}
        events.append(event)
        return event

    outer = call("train.py(10): step", 500.0, cat="python_function", CallFrom="train.py:40")
    module = call("nn.Module: Linear_0", 100.0, cat="python_function", CallFrom="train.py:12")
    ts += 1
    linear = call("aten::linear", 50.0, **{"Sequence number": 3, "External id": 1,
                                          "Input Dims": [[4, 8], [8, 8]],
                                          "Input type": ["float", "float"]})
    events.append({"ph": "s", "cat": "fwdbwd", "name": "fwdbwd", "id": 3, "pid": 7, "tid": 7,
                   "ts": ts})
    events.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                   "pid": 7, "tid": 7, "ts": ts + 1, "args": {
                       "Total Reserved": 0, "Total Allocated": 128, "Bytes": 128,
                       "Device Type": 0, "Device Id": -1, "Addr": 4096}})
    ts += 200
    call("autograd::engine::evaluate_function: AddmmBackward0", 30.0)
    events.append({"ph": "f", "cat": "fwdbwd", "name": "fwdbwd", "id": 3, "pid": 7, "tid": 7,
                   "ts": ts, "bp": "e"})
    events.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
                   "pid": 7, "tid": 7, "ts": ts + 1, "args": {
                       "Total Reserved": 0, "Total Allocated": 0, "Bytes": -128,
                       "Device Type": 0, "Device Id": -1, "Addr": 4096}})
    ts += 100
    call("Optimizer.step#SGD.step", 20.0, cat="user_annotation")
    del outer, module, linear, python_id
    return {"schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000,
            "traceEvents": events}


def plain_snapshot():
    """A snapshot in the shape of torch.cuda.memory._snapshot()'s."""
    frames = [{"filename": "/home/u/train.py", "line": 12, "name": "forward"},
              {"filename": "/usr/lib/python3/dist-packages/torch/nn/modules/module.py",
               "line": 1500, "name": "_call_impl"}]
    return {
        "segments": [{"device": 0, "address": 1 << 20, "total_size": 4096, "stream": 0,
                      "segment_type": "small", "allocated_size": 1024, "active_size": 1024,
                      "blocks": [{"address": 1 << 20, "size": 1024, "requested_size": 1000,
                                  "state": "active_allocated", "frames": frames},
                                 {"address": (1 << 20) + 1024, "size": 3072,
                                  "state": "inactive", "frames": []}]}],
        "device_traces": [[
            {"action": "alloc", "addr": (1 << 20) + 1024, "size": 2048, "stream": 0,
             "time_us": 10, "frames": frames, "category": "activation"},
            {"action": "free_requested", "addr": (1 << 20) + 1024, "size": 2048, "stream": 0,
             "time_us": 11, "frames": frames},
            {"action": "free_completed", "addr": (1 << 20) + 1024, "size": 2048, "stream": 0,
             "time_us": 12, "frames": frames},
            {"action": "alloc", "addr": 1 << 20, "size": 1024, "stream": 0, "time_us": 13,
             "frames": frames},
        ]],
    }


class Evil:
    def __reduce__(self):
        return (os.system, ("true",))


def write(corpus, name, data):
    with open(os.path.join(corpus.out_dir, name), "wb") as f:
        f.write(data)
    corpus.count += 1


def trace_variants(corpus, tag, text, rng):
    write(corpus, f"{tag}-original.json", text)
    write(corpus, f"{tag}-original.json.gz", gzip.compress(text, mtime=0))
    for fraction in (0.1, 0.5, 0.9, 0.999):
        write(corpus, f"{tag}-cut-{fraction}.json", text[: int(len(text) * fraction)])
    packed = gzip.compress(text, mtime=0)
    write(corpus, f"{tag}-cut.json.gz", packed[: len(packed) // 2])
    flipped = bytearray(packed)
    for _ in range(8):
        flipped[rng.randrange(10, len(flipped))] ^= 1 << rng.randrange(8)
    write(corpus, f"{tag}-flipped.json.gz", bytes(flipped))
    write(corpus, f"{tag}-twice.json.gz", packed + packed)  # two gzip members


def event_variants(corpus, rng):
    base = plain_trace()

    def variant(name, change):
        trace = copy.deepcopy(base)
        change(trace["traceEvents"])
        write(corpus, f"trace-{name}.json", json.dumps(trace).encode())

    def set_all(key, value):
        return lambda events: [e.__setitem__(key, value) for e in events if e.get("ph") == "X"]

    variant("nan-duration", set_all("dur", float("nan")))
    variant("infinite-duration", set_all("dur", float("inf")))
    variant("negative-duration", set_all("dur", -5))
    variant("text-duration", set_all("dur", "long"))
    variant("huge-time", set_all("ts", 1e300))
    variant("no-duration", lambda events: [e.pop("dur", None) for e in events])
    variant("out-of-order", lambda events: rng.shuffle(events))
    variant("unknown-kinds", lambda events: [e.__setitem__("ph", "Z") for e in events[::2]])
    variant("flows-to-nothing", lambda events: [e.__setitem__("ts", 1) for e in events
                                                if e.get("cat") == "fwdbwd"])
    variant("frees-of-nothing", lambda events: [e["args"].__setitem__("Addr", 1)
                                                for e in events if e.get("name") == "[memory]"])
    variant("long-name", set_all("name", "x" * 1_000_000))
    variant("huge-bytes", lambda events: [e["args"].__setitem__("Bytes", -(1 << 63))
                                          for e in events if e.get("name") == "[memory]"])
    variant("huge-totals", lambda events: [e["args"].__setitem__("Total Allocated", (1 << 63) - 1)
                                           for e in events if e.get("name") == "[memory]"])
    variant("allocations-past-any-machine", lambda events: events.extend(
        {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 7,
         "ts": 1002.0 + i, "args": {"Total Reserved": 0, "Total Allocated": 1 << 49,
                                    "Bytes": 1 << 49, "Device Type": 0, "Addr": 8192 + i}}
        for i in range(4096)))
    late = copy.deepcopy(base)
    late["baseTimeNanoseconds"] = (1 << 63) - 1
    write(corpus, "trace-base-time-at-the-end.json", json.dumps(late).encode())
    variant("string-threads", set_all("tid", "a thread"))
    variant("nested-python-calls", lambda events: events.extend(
        {"ph": "X", "cat": "python_function", "name": f"f.py({i}): f", "pid": 7, "tid": 7,
         "ts": 1000.0, "dur": 500.0, "args": {"CallFrom": f"f.py:{i}"}} for i in range(5000)))
    deep = b'{"traceEvents": [' + b"[" * 100000 + b"]" * 100000 + b"]}"
    write(corpus, "trace-nested-100000-deep.json", deep)
    write(corpus, "trace-no-events.json", b'{"schemaVersion": 1}')
    write(corpus, "trace-not-an-object.json", b'"traceEvents"')


def pickle_variants(corpus, rng):
    snapshot = plain_snapshot()
    original = pickle.dumps(snapshot, protocol=4)
    write(corpus, "snapshot-original.pickle", original)
    write(corpus, "snapshot-protocol-2.pickle", pickle.dumps(snapshot, protocol=2))
    untimed = copy.deepcopy(snapshot)  # as a CPU profile's snapshot is: no time_us
    for e in untimed["device_traces"][0]:
        del e["time_us"]
    write(corpus, "snapshot-untimed.pickle", pickle.dumps(untimed, protocol=4))
    write(corpus, "snapshot-global.pickle", pickle.dumps({"segments": [Evil()]}))
    write(corpus, "snapshot-reduce-only.pickle", b"\x80\x04R.")
    write(corpus, "snapshot-build.pickle", b"\x80\x04}b.")
    write(corpus, "snapshot-memo-to-nothing.pickle", b"\x80\x04h\xff.")
    write(corpus, "snapshot-huge-string.pickle", b"\x80\x04\x8d" + struct.pack("<Q", 1 << 62))
    write(corpus, "snapshot-list-holds-itself.pickle", b"\x80\x04]\x94h\x00a.")
    write(corpus, "snapshot-setitems-on-list.pickle", b"\x80\x04](K\x01K\x02u.")
    write(corpus, "snapshot-deep-lists.pickle", b"\x80\x04" + b"]" * 100000 + b"a" * 99999 + b".")
    write(corpus, "snapshot-empty-stack.pickle", b"\x80\x04a.")
    write(corpus, "snapshot-long4.pickle", b"\x80\x04\x8b\xff\xff\xff\x7f.")
    for fraction in (0.3, 0.7, 0.99):
        write(corpus, f"snapshot-cut-{fraction}.pickle", original[: int(len(original) * fraction)])
    for n in range(4):
        flipped = bytearray(original)
        for _ in range(4):
            flipped[rng.randrange(2, len(flipped))] ^= 1 << rng.randrange(8)
        write(corpus, f"snapshot-flipped-{n}.pickle", bytes(flipped))
    odd = copy.deepcopy(snapshot)
    odd["device_traces"][0].append({"action": "free_completed", "addr": 99, "size": -5})
    odd["segments"][0]["blocks"][0]["size"] = -1
    write(corpus, "snapshot-negative-sizes.pickle", pickle.dumps(odd))
    huge = copy.deepcopy(snapshot)
    for e in huge["device_traces"][0]:
        e["size"], e["time_us"] = 1 << 55, (1 << 63) - 1
    write(corpus, "snapshot-huge-sizes.pickle", pickle.dumps(huge))
    many = copy.deepcopy(snapshot)
    many["device_traces"][0] = [{"action": "alloc", "addr": i, "size": 1 << 49, "time_us": i,
                                 "frames": []} for i in range(4096)]
    write(corpus, "snapshot-past-any-machine.pickle", pickle.dumps(many))


def import_variants(corpus, seed_dir, rng):
    os.makedirs(seed_dir, exist_ok=True)
    recorded = os.path.join(seed_dir, "recorded")
    subprocess.run([sys.executable, RECORDER, recorded], check=True, capture_output=True,
                   timeout=300)
    with open(recorded + ".json", "rb") as f:
        trace_variants(corpus, "trace-recorded", f.read(), rng)
    if os.path.exists(recorded + ".pickle"):
        with open(recorded + ".pickle", "rb") as f:
            write(corpus, "snapshot-recorded.pickle", f.read())
    trace_variants(corpus, "trace-plain", json.dumps(plain_trace()).encode(), rng)
    event_variants(corpus, rng)
    pickle_variants(corpus, rng)
