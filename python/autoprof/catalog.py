"""The metric catalog: what each collected metric means.

The catalog lives in the AutoProf tools; `autoprof-learn --print-catalog=CHIP`
prints it as JSON, which `load_catalog` reads (from that tool, found on PATH
or given, or from a file written by it earlier).
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Optional


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
    except (KeyError, TypeError) as error:
        raise CatalogError(f"not a metric catalog: missing {error}") from None


def load_catalog(chip: str = "sm_90", tool: Optional[str] = None,
                 path=None) -> Catalog:
    """The catalog of `chip`: read from `path` when given, else printed by
    `tool` (default: autoprof-learn on PATH)."""
    if path is not None:
        try:
            return parse_catalog(json.loads(pathlib.Path(path).read_text()))
        except (OSError, json.JSONDecodeError) as error:
            raise CatalogError(f"{path}: {error}") from None
    tool = tool or shutil.which("autoprof-learn")
    if not tool:
        raise CatalogError("autoprof-learn is not on PATH (build AutoProf, or "
                           "give the tool or a catalog file)")
    try:
        proc = subprocess.run([tool, f"--print-catalog={chip}"],
                              capture_output=True, text=True)
    except OSError as error:
        raise CatalogError(f"cannot run {tool}: {error.strerror}") from None
    if proc.returncode != 0:
        raise CatalogError(proc.stderr.strip() or
                           f"{tool} failed with status {proc.returncode}")
    return parse_catalog(json.loads(proc.stdout))
