# SPDX-License-Identifier: Apache-2.0
"""python3 -m trainscope profile ENTRY.py -o PREFIX: profiles the step of a Skyline or DeepView
entry point (model_provider, input_provider, iteration_provider, with the prefix skyline_,
deepview_ or none) in this process, and writes PREFIX's three reports. Exit codes as
trainscope-cli's: 0 done, 1 the run failed, 2 a usage error."""

import argparse
import inspect
import os
import signal
import sys
import threading

USAGE_ERROR, RUN_FAILED = 2, 1


def _fail(message, code):
    print(f"trainscope: error: {message}", file=sys.stderr)
    return code


def _entry_point_arguments(command, writes, warmup, iterations):
    """The options `profile` and `advise` share: the entry point, where the reports go, the
    batch, the steps, the project and the device."""
    command.add_argument("entry", metavar="ENTRY.py")
    command.add_argument("-o", "--output", required=True, metavar="PREFIX", help=writes)
    command.add_argument("-f", "--force", action="store_true", help="replace existing reports")
    command.add_argument("--batch-size", type=int, metavar="N",
                         help="passed to input_provider (default: its own)")
    command.add_argument("--warmup", type=int, default=warmup[0], metavar="N", help=warmup[1])
    command.add_argument("--iterations", type=int, default=iterations[0], metavar="N",
                         help=iterations[1])
    command.add_argument("--project-root", metavar="DIR",
                         help="frames under DIR are the project's (default: ENTRY.py's folder)")
    command.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                         help="where the model and inputs are moved to (default cpu)")
    command.add_argument("-q", "--quiet", action="store_true", help="print no progress")


def _arguments(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m trainscope",
        description="Profiles your own training step in this Python process.")
    commands = parser.add_subparsers(dest="command", required=True)
    profile = commands.add_parser(
        "profile", help="profile a Skyline/DeepView entry point",
        description="Runs ENTRY.py's providers: model_provider(), "
                    "input_provider(batch_size=N) and iteration_provider(model), each with the "
                    "prefix skyline_, deepview_ or none; without an iteration_provider, a "
                    "default step (sum of the outputs as loss, SGD).")
    _entry_point_arguments(
        profile, "writes PREFIX.memory.sqlite, PREFIX.time.sqlite and PREFIX.timeline.sqlite",
        (2, "unobserved steps first (default 2)"),
        (3, "observed steps: the first for memory, the rest timed (default 3)"))
    profile.add_argument("--progress-lines", action="store_true",
                         help="progress for a program to read: one line on stderr per step, "
                              "'trainscope-progress: warmup|memory|time STEP OF' after each step")
    advise = commands.add_parser(
        "advise", help="what-ifs for the step, predicted and (--verify) measured",
        description="Profiles ENTRY.py's step as `profile` does (PREFIX's three reports), then "
                    "lists what-ifs, each predicted from the tensors the step's forward saved "
                    "for backward; --verify runs each on a copy of the model and prints the "
                    "measured figures beside the predicted ones.")
    _entry_point_arguments(
        advise, "writes PREFIX.memory.sqlite, PREFIX.time.sqlite and PREFIX.timeline.sqlite "
                "(the step as it is) and PREFIX.advice.sqlite (the what-ifs)",
        (1, "unobserved steps before each measurement (default 1)"),
        (2, "observed steps of each measurement (default 2)"))
    advise.add_argument("--verify", action="store_true",
                        help="run each what-if that can be applied automatically, and measure it")
    advise.add_argument("--format", choices=["text", "json"], default="text",
                        help="text (default), or a JSON list of the what-ifs")
    advise.add_argument("--ranks", type=int, metavar="N",
                        help="in one process: also the optimizer's state sharded over N ranks "
                             "(ZeRO-1), predicted; on each rank of a job (torchrun): each "
                             "rank's peak with the job over N ranks (FSDP2's shards), predicted, "
                             "and with --verify measured by running the job at N ranks on this "
                             "machine")
    advise.add_argument("--memory-budget", metavar="SIZE",
                        help="also the largest batch size whose peak fits SIZE (24GiB, 512MiB, "
                             "8GB), through input_provider(batch_size=N)")
    return parser.parse_args(argv)


def _fail_rank(hosted, message, code):
    """A run that failed; in a job, the other ranks learn why, and a rank whose step broke
    because another rank failed first names that rank's failure, its cause."""
    if hosted.ranks is None or hosted.agreement is None:
        return _fail(message, code)
    cause = hosted.tell_the_ranks(message)
    rank = hosted.ranks.rank
    if cause == message:  # this rank wrote nothing because of it
        return _fail(f"{cause}: rank {rank} wrote no report either", code)
    if cause:
        return _fail(f"{cause}; rank {rank} stopped: {message}", code)
    return _fail(f"rank {rank}: {message}", code)


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM ends the run as Ctrl-C does: no report is written


class UsageError(Exception):
    """A command line that cannot run: its message, for one line."""


def _entry_and_output(args, *counts):
    """ENTRY.py and PREFIX as absolute paths, resolved before the entry point runs (it may
    change the folder), once the options that `profile` and `advise` share are checked, with
    `counts`: (option, value, least) of their own."""
    entry = os.path.abspath(args.entry)
    if not os.path.isfile(entry):
        raise UsageError(f"no such entry point: {args.entry}")
    for name, value, least in (("--warmup", args.warmup, 0), ("--iterations", args.iterations, 1),
                               ("--batch-size", args.batch_size, 1)) + counts:
        if value is not None and value < least:
            raise UsageError(f"{name} expects a count of at least {least}")
    output = args.output
    if not output or output.endswith(os.sep) or os.path.isdir(output):
        raise UsageError(f"-o expects a file prefix such as run or out/run, not '{output}'")
    return entry, os.path.abspath(output)


def _check_device(args, torch):
    if args.device == "cuda" and not torch.cuda.is_available():
        raise UsageError(f"--device cuda: this torch ({torch.__version__}) sees no CUDA device")


def profile_entry_point(args, kept=None):
    """`profile`; with `kept` (a dict), what a caller reads on after the reports are written:
    the model, its optimizer, the figures and the ranks, with no summary printed."""
    import torch  # noqa: F401  (the extension needs torch loaded first)
    from . import _trainscope
    from ._host import (HostedSession, ObservedModel, inputs_text, model_facts, observing_hint,
                        start_session, warn_if_incomplete)
    from ._text import one_line
    from ._entry import (ContractError, default_step, inputs_from, load_entry, model_from,
                         optimizer_of, provider, step_from)
    from ._model_hooks import hooks_for, uncompiled
    from ._ranks import outputs_of_this_process

    try:
        entry, output = _entry_and_output(args)
        ranks, agreement = outputs_of_this_process(output, args.force)
        _check_device(args, torch)
    except (UsageError, _trainscope.Error) as e:
        return _fail(one_line(e), USAGE_ERROR)
    root = os.path.abspath(args.project_root or os.path.dirname(entry))
    sys.path.insert(0, os.path.dirname(entry))
    try:
        namespace = load_entry(entry)
    except KeyboardInterrupt:
        return _fail(f"interrupted while {args.entry} was loading: no report was written",
                     RUN_FAILED)
    except SystemExit as e:
        return _fail(f"{args.entry} called sys.exit({e.code!r}) while loading: no report was "
                     f"written", RUN_FAILED)
    except Exception as e:  # the user's module failed to import
        return _fail(f"{args.entry} could not be loaded: {type(e).__name__}: {one_line(e)}",
                     RUN_FAILED)
    model_provider = provider(namespace, "model_provider")
    input_provider = provider(namespace, "input_provider")
    iteration_provider = provider(namespace, "iteration_provider")
    if model_provider is None or input_provider is None:
        missing = [k for k, f in (("model_provider", model_provider),
                                  ("input_provider", input_provider)) if f is None]
        return _fail(f"{args.entry} has no {' or '.join(missing)} (with the prefix skyline_, "
                     f"deepview_ or none)", USAGE_ERROR)

    def say(text):  # in a job of several ranks, rank 0 speaks for all
        if not args.quiet and not progress_lines and (ranks is None or ranks.rank == 0):
            print(text, file=sys.stderr, flush=True)

    progress_lines = getattr(args, "progress_lines", False)  # advise has none

    def progress(part, step, of):
        if progress_lines:
            print(f"trainscope-progress: {part} {step} {of}", file=sys.stderr, flush=True)

    hosted = HostedSession(None, root, ranks, agreement)
    observed = ObservedModel()
    running = "model_provider"  # the user's code that runs, for its errors
    received = []
    try:
        # The meter runs before the model exists: its weights are counted as c10 allocates them.
        facts = {"model": os.path.basename(entry), "entry_point": entry,
                 "warmup": str(args.warmup), "iterations": str(args.iterations),
                 "default_step": "yes" if iteration_provider is None else "no",
                 "batch_size": str(args.batch_size or "")}
        facts.update(ranks.metadata() if ranks else {})
        hosted.session = session = start_session(observed, args.device, root, facts,
                                               hosted.own_prefix(output))
        model = model_from(model_provider, args.device)
        running = "input_provider"
        inputs = inputs_from(input_provider, args.batch_size, args.device, args.entry)
        running = "iteration_provider"
        if iteration_provider is None:
            step = default_step(model)
            say("trainscope: no iteration_provider: the default step (sum loss, SGD)")
        else:
            step = step_from(iteration_provider, model)
        named, compiled = uncompiled(model)  # the step runs the model as it was given
        observed.model, observed.optimizer = named, optimizer_of(step)
        facts = model_facts(named, observed.optimizer, inputs_text(inputs),
                            "sum" if iteration_provider is None else "the step's own", compiled)
        facts["model"] = f"{os.path.basename(entry)}:{type(named).__name__}"
        session.set_metadata(facts)
        hosted.hooks = hooks_for(model, session)
        hosted.watch_compiled_code()
        running = "the step"
        for i in range(args.warmup):
            say(f"trainscope: warm-up {i + 1}/{args.warmup}")
            step(*inputs)
            progress("warmup", i + 1, args.warmup)  # a step ended
        for i in range(args.iterations):
            say(f"trainscope: {'memory' if i == 0 else 'time'}: step {i + 1}/{args.iterations}")
            hosted.begin_step()
            step(*inputs)
            hosted.end_step()
            progress("memory" if i == 0 else "time", i + 1, args.iterations)
        running = "writing the reports"
        figures = hosted.write(output, args.force, received)
    except ContractError as e:
        if hosted.forked():  # a child that the step forked: its exit or fault is its own
            raise
        return _fail(str(e), USAGE_ERROR)
    except _trainscope.Error as e:
        if hosted.forked():  # a child that the step forked: its exit or fault is its own
            raise
        return _fail_rank(hosted, one_line(e), RUN_FAILED)
    except KeyboardInterrupt:
        if hosted.forked():  # a child that the step forked: its exit or fault is its own
            raise
        return _fail_rank(hosted, "interrupted: no report was written", RUN_FAILED)
    except SystemExit as e:  # the user's code asked to exit: no report, and said so
        if hosted.forked():  # a child that the step forked: its exit or fault is its own
            raise
        if hosted.session is not None:
            hosted.session.abandon_step()
        return _fail_rank(hosted, f"{running} called sys.exit({e.code!r}): no report was "
                          f"written", RUN_FAILED)
    except BaseException as e:  # the user's code raised: its message and where
        if hosted.forked():  # a child that the step forked: its exit or fault is its own
            raise
        frame = next((f for f in reversed(inspect.trace()) if f.filename.startswith(root)), None)
        where = f" ({os.path.relpath(frame.filename, root)}:{frame.lineno})" if frame else ""
        if hosted.session is not None:
            hosted.session.abandon_step()
        hint = observing_hint(e)
        return _fail_rank(hosted, f"{running} raised {type(e).__name__}: {one_line(e)}{where}"
                                + (f"; {hint}" if hint else ""), RUN_FAILED)
    finally:
        hosted.close()
    if hosted.forked():  # a child that went on with the steps, unobserved
        return 0
    own = hosted.own_prefix(output)
    warn_if_incomplete(figures, own)
    if kept is not None and not received:
        kept.update(model=named, optimizer=observed.optimizer, figures=figures, root=root)
        return 0
    if ranks is None or ranks.rank == 0:
        try:
            print(figures.summary, end="")
            print(figures.ranks_summary, end="", flush=True)
        except BrokenPipeError:  # `| head`: the reports are written, the reader went away
            sys.stdout = None
    if received:
        return _fail(f"interrupted while the reports were written; they were complete and are "
                     f"kept: {', '.join(_trainscope.run_report_paths(own))}", RUN_FAILED)
    return 0


def advise_entry_point(args):
    import torch
    from . import _trainscope
    from .advisor import advice as _advice
    from ._compiles import compiled_a_frame
    from ._entry import (ContractError, default_step, inputs_from, load_entry, model_from,
                         optimizer_of, provider, step_from, takes_batch_size)
    from ._profile import profile
    from ._ranks import Ranks
    from ._text import one_line

    try:
        entry, output = _entry_and_output(args, ("--ranks", args.ranks, 2))
        # parse_byte_size's error names --memory-budget
        budget = None if args.memory_budget is None else \
            _trainscope.parse_byte_size(args.memory_budget)
        job = Ranks.of_this_process()
        if job is not None and job.world_size > 1:
            if not args.ranks or budget is not None:
                raise UsageError("in a job of several ranks advise predicts the job at another "
                                 "rank count: give --ranks N (without --memory-budget; the "
                                 "other what-ifs run in one process)")
        else:
            job = None
        existing = [path for path in ([] if job else _trainscope.run_report_paths(output)) +
                    [_trainscope.advice_report_path(output)] if os.path.exists(path)]
        if existing and not args.force:
            raise UsageError(f"{existing[0]} exists; use --force to replace it")
        _check_device(args, torch)
    except (UsageError, _trainscope.Error) as e:
        return _fail(one_line(e), USAGE_ERROR)
    if job is not None:
        return _advise_job(args, job, entry, output)
    root = os.path.abspath(args.project_root or os.path.dirname(entry))
    sys.path.insert(0, os.path.dirname(entry))

    def say(text):
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    running = f"loading {args.entry}"
    written = ""  # once the profile's reports are written: what a failure after it leaves

    def failed(message):
        return _fail(message + written, RUN_FAILED)

    try:
        namespace = load_entry(entry)
        model_provider = provider(namespace, "model_provider")
        input_provider = provider(namespace, "input_provider")
        iteration_provider = provider(namespace, "iteration_provider")
        if model_provider is None or input_provider is None:
            return _fail(f"{args.entry} has no model_provider or input_provider (with the "
                         f"prefix skyline_, deepview_ or none)", USAGE_ERROR)
        running = "model_provider"
        model = model_from(model_provider, args.device)
        running = "input_provider"
        inputs = inputs_from(input_provider, args.batch_size, args.device, args.entry)
        make_step = iteration_provider or default_step
        running = "iteration_provider"
        step = step_from(make_step, model)
        running = "the step"
        say("trainscope: recording what the forward saves for backward")
        saved = _advice.record_saved(model, step, inputs)
        say("trainscope: profiling the step as it is")
        observing = profile(output, model=model, optimizer=optimizer_of(step),
                            warmup=args.warmup, active=args.iterations, force=args.force,
                            project_root=root)
        with observing:
            for _ in range(args.warmup + args.iterations):
                step(*inputs)
                observing.step()
        baseline = observing.figures
        if baseline is None:
            return _fail("the step could not be observed (the line above says why)",
                         RUN_FAILED)
        written = (f"; {', '.join(_trainscope.run_report_paths(output))} are written, "
                   f"{_trainscope.advice_report_path(output)} is not (a rerun replaces them "
                   f"with --force)")
        # After the profiled steps, so that the gradients a step keeps from the one before are
        # there to be seen (the recording step above is the first: there are none before it).
        saved.gradients = _advice.record_gradients(model, step, inputs)

        def inputs_at(batch):  # the inputs at another batch size, as the step takes them
            return inputs_from(input_provider, batch, args.device, args.entry)

        # The batch: the one asked for, else the first input's first dimension.
        batch = args.batch_size or next(
            (t.shape[0] for t in inputs if isinstance(t, torch.Tensor) and t.dim() > 0), None)
        running = "the what-ifs"
        users = _advice.UsersStep(model, optimizer_of(step), make_step, optimizer_of, inputs,
                                  root, args.warmup, args.iterations,
                                  inputs_at if takes_batch_size(input_provider) else None)
        what_ifs = _advice.advise(users, baseline, output, saved, verify=args.verify, say=say,
                                  budget=budget, batch=batch, ranks=args.ranks)
        if compiled_a_frame():
            for w in what_ifs:
                w.not_predicted = "; ".join(
                    filter(None, [w.not_predicted, _advice.COMPILED_NOT_PREDICTED]))
    except ContractError as e:
        return _fail(str(e), USAGE_ERROR)
    except KeyboardInterrupt:
        return failed("interrupted")
    except SystemExit as e:
        return failed(f"{running} called sys.exit({e.code!r})")
    except Exception as e:
        return failed(f"{running} raised {type(e).__name__}: {one_line(e)}")
    return _write_advice(args, entry, model, what_ifs, baseline, output, {}, failed, budget)


def _advise_job(args, job, entry, output):
    """advise --ranks N on a rank of a job: every rank profiles its step as `profile` profiles a
    job's (PREFIX.rankR's reports); rank 0 then predicts each rank's peak with the job over N
    ranks (advisor/ranks.py), runs the job at N ranks with --verify (as `profile` again, so
    that the two are measured alike), and writes PREFIX.advice.sqlite."""
    from ._text import one_line
    from .advisor import ranks as _ranks

    def say(text):  # rank 0 speaks for all
        if not args.quiet and job.rank == 0:
            print(text, file=sys.stderr, flush=True)

    kept = {}
    code = profile_entry_point(args, kept)
    if code != 0 or job.rank != 0:
        return code
    model, baseline = kept["model"], kept["figures"]
    running = "the prediction"
    try:
        what_ifs = _ranks.job_what_ifs(model, kept["optimizer"], baseline,
                                       lambda r: job.prefix(output, r), job.world_size,
                                       args.ranks)
        for w in what_ifs:
            w.why_not = "" if args.verify else "not asked (--verify runs it)"
        if args.verify:
            running = f"the job at {args.ranks} ranks"
            options = ["--warmup", str(args.warmup), "--iterations", str(args.iterations),
                       "--device", args.device, "--project-root", kept["root"]]
            if args.batch_size:
                options += ["--batch-size", str(args.batch_size)]
            _ranks.verify_job(what_ifs, entry, args.ranks, options, args.device, say)
    except LookupError as e:
        return _fail(f"{args.entry}: {one_line(e)}", RUN_FAILED)
    except KeyboardInterrupt:
        return _fail("interrupted", RUN_FAILED)
    except Exception as e:
        return _fail(f"{running} raised {type(e).__name__}: {one_line(e)}", RUN_FAILED)
    return _write_advice(args, entry, model, what_ifs, baseline, output,
                         {"ranks": str(job.world_size)}, lambda m: _fail(m, RUN_FAILED))


def _write_advice(args, entry, model, what_ifs, baseline, output, more_metadata, failed,
                  budget=None):
    """PREFIX.advice.sqlite and the what-ifs printed, for advise in one process and in a job;
    `failed` says a failed write the way its caller says its other failures."""
    import torch
    from . import _trainscope
    from ._text import one_line
    from .advisor import advice as _advice

    metadata = {"entry_point": entry, "model": f"{os.path.basename(entry)}:"
                f"{type(model).__name__}", "torch": torch.__version__,
                "verified": "yes" if args.verify else "no", **more_metadata}
    try:
        _advice.write_output(what_ifs, baseline, output, args.force, metadata, args.format,
                             budget)
    except BrokenPipeError:  # `| head`: the report is written, the reader went away
        sys.stdout = None
    except Exception as e:  # the engine's refusal or a write that failed
        return failed(f"writing {_trainscope.advice_report_path(output)}: {one_line(e)}")
    return 0


def _ended_by_the_interpreter(thread, frames):
    """Whether the interpreter's own shutdown ends this thread, which comes after main()
    returns: an executor's worker idle on its queue (concurrent.futures registers an exit hook
    with threading that wakes and joins them, as Inductor's compile pool relies on). Waiting
    for such a thread here would wait for a thread that waits for us."""
    from concurrent.futures import process, thread as pool
    queue = getattr(pool, "_threads_queues", {}).get(thread)
    if queue is not None:  # a ThreadPoolExecutor's worker: idle when it waits for work
        frame = frames.get(thread.ident)
        return (frame is not None and frame.f_code is pool._worker.__code__
                and queue.empty())
    if thread in getattr(process, "_threads_wakeups", {}):  # a ProcessPoolExecutor's manager
        return not getattr(thread, "pending_work_items", None)
    return False


def _threads_that_keep_the_process():
    """The entry point's threads that the process would wait for before it exits."""
    frames = sys._current_frames()
    return [t for t in threading.enumerate()
            if t is not threading.main_thread() and not t.daemon and t.is_alive()
            and not _ended_by_the_interpreter(t, frames)]


def _wait_for_threads(code):
    """The entry point's threads that are still running and that the interpreter would wait
    for: the run says what it waits for, and Ctrl-C or SIGTERM ends the wait in one line.
    Threads that the interpreter's shutdown ends by itself are left to it."""
    running = _threads_that_keep_the_process()
    if not running:
        return code
    done = "the reports are written; " if code == 0 else ""
    try:  # from the announcement on: a signal may come as soon as it is read
        print(f"trainscope: {done}waiting for the entry point's threads to end "
              f"({', '.join(t.name for t in running)}); Ctrl-C ends the process",
              file=sys.stderr, flush=True)
        while running:  # an executor's worker that finishes its task becomes idle, not ended
            running[0].join(0.1)
            running = _threads_that_keep_the_process()
    except KeyboardInterrupt:
        print("trainscope: interrupted while waiting for the entry point's threads"
              + (" (the reports are written)" if code == 0 else ""), file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(RUN_FAILED)
    return code


def main(argv=None):
    signal.signal(signal.SIGTERM, _interrupt)  # from the start: the entry's import included
    try:
        args = _arguments(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else USAGE_ERROR
    if args.command == "advise":
        return _wait_for_threads(advise_entry_point(args))
    return _wait_for_threads(profile_entry_point(args))


if __name__ == "__main__":
    sys.exit(main())
