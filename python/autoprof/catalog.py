"""The metric catalog: what each collected metric means.

The catalog lives in the AutoProf tools; `autoprof-learn --print-catalog=CHIP`
prints it as JSON, which `load_catalog` reads (from that tool, found on PATH
or given, or from a file written by it earlier).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from . import files
from .tools import ToolError, run_tool


class CatalogError(RuntimeError):
    """The catalog could not be had, and why."""


@dataclass
class MetricMeaning:
    name: str
    unit: str
    meaning: str
    source: str


@dataclass
class Catalog:
    chip: str
    metrics: Dict[str, MetricMeaning]
    groups: Dict[str, List[str]]

    def meaning(self, name: str) -> Optional[MetricMeaning]:
        return self.metrics.get(name)


def parse_catalog(document) -> Catalog:
    try:
        metrics = {m["name"]: MetricMeaning(m["name"], m["unit"],
                                            m["meaning"], m["source"])
                   for m in document["metrics"]}
        groups = {g["name"]: list(g["metrics"]) for g in document["groups"]}
        return Catalog(document["chip"], metrics, groups)
    except (KeyError, TypeError, AttributeError) as error:
        raise CatalogError(f"not a metric catalog: missing or bad "
                           f"{error}") from None


def load_catalog(chip: str = "sm_90", tool: Optional[str] = None,
                 path=None) -> Catalog:
    """The catalog of `chip`: read from `path` when given, else printed by
    `tool` (default: autoprof-learn on PATH)."""
    try:
        if path is not None:
            return parse_catalog(files.read_json(path))
        proc = run_tool("autoprof-learn", [f"--print-catalog={chip}"], tool)
        return parse_catalog(files.parse_json(proc.stdout,
                                              "autoprof-learn's catalog"))
    except (ToolError, files.InputError) as error:
        raise CatalogError(str(error)) from None
