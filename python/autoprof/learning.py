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
    edit: str
    train_score: float
    mean_improvement: Optional[float] = None


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
        try:
            rounds.append(Round(
                round=int(entry["round"]),
                train_score=float(entry["train_score"]),
                decision=str(entry.get("decision", "")),
                proposals=[Proposal(p["edit"], float(p["train_score"]),
                                    p.get("mean_improvement"))
                           for p in entry.get("proposals", [])]))
        except (KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{path}: round [{i}]: missing or bad "
                              f"{error}") from None
    return rounds
