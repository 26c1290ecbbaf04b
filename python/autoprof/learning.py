"""The log `autoprof-learn --log FILE` writes: one entry per round with the
tree's training score, every proposed edit with the score it would give, and
the decision (docs/profiling-tree.md)."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import List, Optional

from .reports import ReportError, read_json


@dataclass
class Proposal:
    """One proposed edit: the score it would give, or why it was refused
    (an edit that does not verify, leaves kernels without an outcome, a
    model's tree that was rejected), then without a score."""
    edit: str
    train_score: Optional[float] = None
    mean_improvement: Optional[float] = None
    rejected: Optional[str] = None


@dataclass
class Round:
    round: int
    train_score: float
    decision: str
    proposals: List[Proposal] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return self.decision.startswith("accepted")


def load_learner_log(path) -> List[Round]:
    """The rounds of a learner log; raises ReportError naming the file and
    the entry when it is not one."""
    path = pathlib.Path(path)
    document = read_json(path)
    if not isinstance(document, list):
        raise ReportError(f"{path}: expected a list of rounds")
    rounds = []
    for i, entry in enumerate(document):
        where = f"round [{i}]"
        try:
            proposals = []
            for j, p in enumerate(entry.get("proposals", [])):
                where = f"round [{i}], proposal [{j}]"
                rejected = p.get("rejected")
                proposals.append(Proposal(
                    edit=str(p["edit"]),
                    train_score=(None if rejected is not None
                                 else float(p["train_score"])),
                    mean_improvement=p.get("mean_improvement"),
                    rejected=None if rejected is None else str(rejected)))
            where = f"round [{i}]"
            rounds.append(Round(
                round=int(entry["round"]),
                train_score=float(entry["train_score"]),
                decision=str(entry.get("decision", "")),
                proposals=proposals))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ReportError(f"{path}: {where}: missing or bad "
                              f"{error}") from None
    return rounds
