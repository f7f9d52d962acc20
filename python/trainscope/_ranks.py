# SPDX-License-Identifier: Apache-2.0
"""Several ranks of one job (torchrun, DDP, FSDP): each rank writes the reports of its own
process, PREFIX.rankR.memory.sqlite, .time.sqlite and .timeline.sqlite, and never another
rank's. No rank's set is put in place before every rank's set is written, so a job leaves all
sets or none; rank 0 then prints the summary of all ranks.

The ranks agree through the job's c10d store (the key-value store behind torch.distributed's
default group): no file of ours, and no collective on the user's backend, whose order with the
user's own collectives would matter."""

import os
import time

from . import _trainscope

# How long a rank waits for the others to finish their runs, and then to commit their sets.
AGREEMENT_TIMEOUT_S = 300

_sessions = 0  # sessions started in this process: the same count on every rank, so keys agree


class Ranks:
    """This process's place in a job of several ranks."""

    def __init__(self, rank, world_size, local_rank):
        self.rank, self.world_size, self.local_rank = rank, world_size, local_rank

    @classmethod
    def of_this_process(cls):
        """The ranks as torchrun names them in the environment (RANK, WORLD_SIZE, LOCAL_RANK), else
        as an initialized default group does; None for a process that is a job of its own."""
        env = os.environ
        if "RANK" in env and "WORLD_SIZE" in env:
            try:
                rank, world = int(env["RANK"]), int(env["WORLD_SIZE"])
            except ValueError:
                raise _trainscope.Error(f"RANK={env['RANK']!r} and WORLD_SIZE="
                                        f"{env['WORLD_SIZE']!r} are not a rank and a count")
        else:
            dist = _distributed()
            if dist is None or not dist.is_initialized():
                return None
            rank, world = dist.get_rank(), dist.get_world_size()
        if world <= 1:
            return None
        if not 0 <= rank < world:
            raise _trainscope.Error(f"rank {rank} is not one of a world of {world}")
        try:
            local_rank = int(env.get("LOCAL_RANK", rank))
        except ValueError:
            raise _trainscope.Error(f"LOCAL_RANK={env['LOCAL_RANK']!r} is not a rank")
        return cls(rank, world, local_rank)

    def prefix(self, prefix, rank=None):
        return f"{prefix}.rank{self.rank if rank is None else rank}"

    def check_outputs(self, prefix, force):
        """Refuses an existing set of any rank, so that every rank refuses alike."""
        for rank in range(self.world_size):
            _trainscope.check_outputs(self.prefix(prefix, rank), force)

    def metadata(self):
        return {"rank": str(self.rank), "world_size": str(self.world_size),
                "local_rank": str(self.local_rank)}


def _distributed():
    import torch.distributed as dist
    return dist if dist.is_available() else None


def outputs_of_this_process(prefix, force, all_ranks=True):
    """(ranks, agreement): None, None for a process that is a job of its own. Checks the outputs
    first: this process's, or in a job every rank's, so that every rank refuses alike. Without
    `all_ranks` (only some ranks profile) this rank writes its own set alone: no agreement."""
    ranks = Ranks.of_this_process()
    if ranks is None:
        _trainscope.check_outputs(prefix, force)
        return None, None
    if not all_ranks:
        _trainscope.check_outputs(ranks.prefix(prefix), force)
        return ranks, None
    ranks.check_outputs(prefix, force)
    return ranks, Agreement(ranks, prefix)


class Agreement:
    """The ranks' word to one another about one session: each rank's set staged, committed, or
    its run failed (with its message). Made when the session starts, on every rank."""

    def __init__(self, ranks, prefix):
        global _sessions
        _sessions += 1
        self.ranks = ranks
        self.key = f"trainscope/{_sessions}/{prefix}"

    def _store(self):
        dist = _distributed()
        if dist is None or not dist.is_initialized():
            return None  # the job never made its default group: the ranks cannot agree
        from torch.distributed import distributed_c10d
        return distributed_c10d._get_default_store()

    def failed(self, message):
        """This rank's run failed: the others learn why (rank 0 prints it). The first failure
        is the one told: a rank that dies breaks the others' collectives, whose own failures
        come after it."""
        store = self._store()
        if store is not None:
            with _store_errors():
                if store.add(f"{self.key}/failures", 1) == 1:
                    store.set(f"{self.key}/failure", f"rank {self.ranks.rank} failed: {message}")

    def stopped(self, message):
        """This rank's run failed with `message`: unless another rank failed first (whose death
        broke this rank's collectives), the others learn of it. Returns that other rank's
        failure, the cause, or None."""
        cause = self.failure_of_another()
        if cause is None:
            self.failed(message)
        return cause

    def failure_of_another(self):
        """The first failure another rank reported, or None: asked by a rank whose own step
        raised, since a rank that dies breaks the collectives of the others."""
        store = self._store()
        if store is None:
            return None
        with _store_errors():
            if store.add(f"{self.key}/failures", 0) == 0:
                return None
            failure = store.get(f"{self.key}/failure").decode()  # set right after the count
        return None if failure.startswith(f"rank {self.ranks.rank} ") else failure

    def write(self, session, prefix, force):
        """Stages this rank's set, waits until every rank has staged its own (or one failed),
        then commits it. Returns the figures; on rank 0 with the summary of all ranks."""
        store = self._store()
        own = self.ranks.prefix(prefix)
        if store is None:
            figures = session.write(own, force)
            figures.ranks_summary = (
                f"Rank {self.ranks.rank} of {self.ranks.world_size}: the job has no "
                f"torch.distributed group, so the ranks wrote their reports without waiting "
                f"for one another\n")
            return figures
        try:
            staged = session.stage(own, force)
            self._say(store, "staged")
            self._wait(store, "staged", "to write its reports")
            cause = self.failure_of_another()
            if cause is not None:  # none of the ranks commits: that failure is why
                staged.discard()
                raise _trainscope.Error(cause)
            staged.commit()
        except Exception as e:  # the others learn of it, and write nothing either
            self.stopped(str(e))
            raise
        self._say(store, "committed")
        figures = staged.figures
        if self.ranks.rank == 0:
            figures.ranks_summary = self._summary_of_ranks(store, prefix)
        return figures

    def _summary_of_ranks(self, store, prefix):
        """Once every rank's set is in place: their summary, or why there is none (this rank's
        own set stands either way)."""
        try:
            self._wait(store, "committed", "to put its reports in place")
            failure = self.failure_of_another()
            if failure is not None:
                return f"No summary of the ranks: {failure}\n"
            return _trainscope.ranks_summary([self.ranks.prefix(prefix, r)
                                              for r in range(self.ranks.world_size)])
        except _trainscope.Error as e:  # another machine's folder, say: not this rank's failure
            return f"No summary of the ranks: {e}\n"

    def _say(self, store, state):
        with _store_errors():
            store.add(f"{self.key}/{state}", 1)

    def _wait(self, store, state, doing):
        """Until every rank has said `state`, or one failed."""
        deadline = time.monotonic() + AGREEMENT_TIMEOUT_S
        with _store_errors():
            while store.add(f"{self.key}/{state}", 0) < self.ranks.world_size:
                if store.add(f"{self.key}/failures", 0) > 0:
                    return
                if time.monotonic() > deadline:
                    raise _trainscope.Error(
                        f"a rank did not finish {doing} within {AGREEMENT_TIMEOUT_S} s")
                time.sleep(0.05)


class _store_errors:
    """The job's store gone (the rank that held it ended): one line, not a traceback."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, traceback):
        if exc_type is None or issubclass(exc_type, _trainscope.Error):
            return False
        if issubclass(exc_type, (RuntimeError, OSError)):
            raise _trainscope.Error(f"the job's store cannot be reached (the rank that holds it "
                                    f"may have ended): {exc}") from exc
        return False
