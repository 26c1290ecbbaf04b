"""Outcome tables: for each kernel, the verified speedup the optimizer
reached with each profiling configuration, and what each configuration costs
(`scripts/measure-outcomes.py` writes them, `autoprof-learn --outcomes`
reads them; include/autoprof/Learn/OutcomeTable.h documents the JSON).

`summarize` answers, per configuration, what the evaluation of a profiling
tree asks of a table: how many kernels it was measured on, the geometric
mean of their speedups, how many metrics it collects and what it costs; with
the per-kernel oracle (each kernel's best measured configuration) as the
bound no configuration can pass. `autoprof.plots.outcome_vs_cost` and
`outcome_vs_metrics` draw it.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from .reports import ReportError, read_json


@dataclass
class Configuration:
    """What a leaf collects, and what collecting it costs."""
    name: str
    groups: List[str]
    metrics: List[str]
    cost_passes: float
    cost_seconds: float
    # The modules it was measured on where not every one (a configuration
    # one step from a leaf, wanted on the modules whose kernels reach it).
    modules: Optional[List[str]] = None

    def metric_count(self, catalog=None) -> Optional[int]:
        """The distinct metrics collected: the named ones and those of the
        groups (by `catalog`, an `autoprof.Catalog`). Unknown (None) when
        groups are named and no catalog is given."""
        if self.groups and catalog is None:
            return None
        names = set(self.metrics)
        for group in self.groups:
            names.update(catalog.groups.get(group, []))
        return len(names)


@dataclass
class KernelOutcome:
    name: str
    program: str
    features: Dict[str, float]
    # Verified speedup per configuration; a configuration not measured on
    # the kernel is absent, never 1 or 0.
    speedup: Dict[str, float]
    # The same after searches of fewer candidates, by budget, where the
    # table records them.
    speedup_at: Dict[int, Dict[str, float]] = field(default_factory=dict)
    # Per configuration, the candidates its search tried in order, each as
    # (rewrite, whether it won), where the table records them.
    paths: Dict[str, List[Tuple[str, bool]]] = field(default_factory=dict)
    # Per configuration, what this kernel's profiles cost as (replay
    # passes, seconds), where the table records it.
    costs: Dict[str, Tuple[float, float]] = field(default_factory=dict)

    def speedup_with(self, configuration: str,
                     budget: Optional[int] = None) -> Optional[float]:
        """The speedup under `configuration` after a search of `budget`
        candidates (the table's budget where None), None where the table
        has none."""
        if budget is not None and budget in self.speedup_at:
            return self.speedup_at[budget].get(configuration)
        return self.speedup.get(configuration)


@dataclass
class OutcomeTable:
    provenance: str
    budget: int
    configurations: List[Configuration]
    kernels: List[KernelOutcome] = field(default_factory=list)

    def configuration(self, name: str) -> Optional[Configuration]:
        return next((c for c in self.configurations if c.name == name), None)


@dataclass
class ConfigurationSummary:
    name: str
    # Kernels the configuration was measured on, and the geometric mean of
    # their speedups (None when none was).
    kernels: int
    geometric_mean: Optional[float]
    # The same over the kernels every configuration was measured on (the
    # means of the configurations are comparable there; None for one
    # measured on some modules only, which that set does not wait for).
    common_mean: Optional[float]
    metric_count: Optional[int]
    cost_passes: float
    cost_seconds: float


def _number(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReportError(f"{where}: expected a number")
    return float(value)


def parse_outcomes(document, source: str = "<table>") -> OutcomeTable:
    """An outcome table from its JSON document; raises ReportError naming
    `source` and the field that is wrong."""
    def need(obj, key, where):
        if not isinstance(obj, dict) or key not in obj:
            raise ReportError(f"{source}: {where}: missing '{key}'")
        return obj[key]

    def listed(key):
        value = need(document, key, "table")
        if not isinstance(value, list):
            raise ReportError(f"{source}: table: '{key}' is not a list")
        return value

    def names_of(entry, key, where):
        """A list of names (groups, metrics), or an error naming it."""
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(n, str)
                                                  for n in value):
            raise ReportError(f"{source}: {where}.{key}: expected a list of "
                              f"names")
        return list(value)

    def numbers_of(entry, key, where):
        """An object of numbers (features), or an error naming it."""
        value = entry.get(key, {})
        if not isinstance(value, dict):
            raise ReportError(f"{source}: {where}.{key}: expected an object")
        return {k: _number(v, f"{source}: {where}.{key}.{k}")
                for k, v in value.items()}

    def per_configuration(entry, key, where):
        """The (configuration, value) items of an object keyed by
        configuration name (paths, costs), or an error naming it."""
        value = entry.get(key, {})
        if not isinstance(value, dict):
            raise ReportError(f"{source}: {where}.{key}: expected an object")
        for name in value:
            if name not in names:
                raise ReportError(f"{source}: {where}.{key}: '{name}' is not "
                                  f"one of the configurations")
        return value.items()

    configurations = []
    for i, entry in enumerate(listed("configurations")):
        where = f"configurations[{i}]"
        configurations.append(Configuration(
            name=str(need(entry, "name", where)),
            groups=names_of(entry, "groups", where),
            metrics=names_of(entry, "metrics", where),
            cost_passes=_number(need(entry, "cost_passes", where),
                                f"{source}: {where}.cost_passes"),
            cost_seconds=_number(need(entry, "cost_seconds", where),
                                 f"{source}: {where}.cost_seconds"),
            modules=(names_of(entry, "modules", where)
                     if "modules" in entry else None)))
        if configurations[-1].modules == []:
            raise ReportError(f"{source}: {where}.modules: empty (a "
                              f"configuration of every module names none)")
    names = set()
    for i, configuration in enumerate(configurations):
        if configuration.name in names:
            raise ReportError(f"{source}: configurations[{i}]: "
                              f"'{configuration.name}' is defined twice")
        names.add(configuration.name)
    if not configurations:
        raise ReportError(f"{source}: table: no configurations")
    kernels = []
    for i, entry in enumerate(listed("kernels")):
        where = f"kernels[{i}]"
        speedups = need(entry, "speedup", where)
        if not isinstance(speedups, dict):
            raise ReportError(f"{source}: {where}.speedup: expected an object")
        def check_speedups(values, field_name):
            for name, value in values.items():
                if name not in names:
                    raise ReportError(f"{source}: {where}.{field_name}: "
                                      f"'{name}' is not one of the "
                                      f"configurations")
                number = _number(value,
                                 f"{source}: {where}.{field_name}.{name}")
                if not (number > 0 and math.isfinite(number)):
                    raise ReportError(f"{source}: {where}.{field_name}."
                                      f"{name}: a speedup is positive (leave "
                                      f"out what could not be measured)")

        check_speedups(speedups, "speedup")
        speedup_at = {}
        at = entry.get("speedup_at", {})
        if not isinstance(at, dict):
            raise ReportError(f"{source}: {where}.speedup_at: expected an "
                              f"object")
        for budget_name, values in at.items():
            if not budget_name.isdigit() or not isinstance(values, dict):
                raise ReportError(f"{source}: {where}.speedup_at."
                                  f"{budget_name}: expected a budget and an "
                                  f"object of speedups")
            check_speedups(values, f"speedup_at.{budget_name}")
            speedup_at[int(budget_name)] = {k: float(v)
                                            for k, v in values.items()}
        paths = {}
        for name, steps in per_configuration(entry, "paths", where):
            if not isinstance(steps, list) or not all(
                    isinstance(step, dict)
                    and isinstance(step.get("rewrite"), str)
                    and isinstance(step.get("accepted"), bool)
                    for step in steps):
                raise ReportError(f"{source}: {where}.paths.{name}: expected "
                                  f"a list of {{\"rewrite\", \"accepted\"}}")
            paths[name] = [(step["rewrite"], step["accepted"])
                           for step in steps]
        costs = {}
        for name, cost in per_configuration(entry, "costs", where):
            field_of = f"{where}.costs.{name}"
            if not isinstance(cost, dict):
                raise ReportError(f"{source}: {field_of}: expected an "
                                  f"object")
            costs[name] = tuple(
                _number(need(cost, key, field_of),
                        f"{source}: {field_of}.{key}")
                for key in ("passes", "seconds"))
            if not all(math.isfinite(c) and c >= 0 for c in costs[name]):
                raise ReportError(f"{source}: {field_of}: a profiling cost "
                                  f"is a finite number, not negative")
        kernel_name = str(need(entry, "name", where))
        if any(k.name == kernel_name for k in kernels):
            raise ReportError(f"{source}: {where}: kernel '{kernel_name}' "
                              f"appears twice")
        kernels.append(KernelOutcome(
            name=kernel_name,
            program=str(need(entry, "program", where)),
            features=numbers_of(entry, "features", where),
            speedup={k: float(v) for k, v in speedups.items()},
            speedup_at=speedup_at, paths=paths, costs=costs))
    budget = document.get("budget", 0)
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 0:
        raise ReportError(f"{source}: budget: expected a whole number of "
                          f"candidates")
    return OutcomeTable(provenance=str(document.get("provenance", "")),
                        budget=budget, configurations=configurations,
                        kernels=kernels)


def load_outcomes(path) -> OutcomeTable:
    """The outcome table in `path`; raises ReportError naming the file and
    the field when it is not one."""
    return parse_outcomes(read_json(path), str(path))


def _geometric_mean(values):
    return (math.exp(sum(math.log(v) for v in values) / len(values))
            if values else None)


def summarize(table: OutcomeTable, catalog=None) -> List[ConfigurationSummary]:
    """One summary per configuration, in the table's order."""
    result = []
    common = common_kernels(table)
    for configuration in table.configurations:
        values = [k.speedup[configuration.name] for k in table.kernels
                  if configuration.name in k.speedup]
        result.append(ConfigurationSummary(
            name=configuration.name, kernels=len(values),
            geometric_mean=_geometric_mean(values),
            common_mean=(None if configuration.modules is not None else
                         _geometric_mean([k.speedup[configuration.name]
                                          for k in common])),
            metric_count=configuration.metric_count(catalog),
            cost_passes=configuration.cost_passes,
            cost_seconds=configuration.cost_seconds))
    return result


def common_kernels(table: OutcomeTable) -> List[KernelOutcome]:
    """The kernels measured with every configuration measured on every
    module (one measured on some modules only would narrow them to those)."""
    return [k for k in table.kernels
            if all(c.name in k.speedup for c in table.configurations
                   if c.modules is None)]


def common_scope(table: OutcomeTable) -> str:
    """What the kernels of common_kernels are, in words: those every
    configuration has, or, where some were measured on some modules only,
    those every configuration of every module has (the others left out)."""
    some = sum(1 for c in table.configurations if c.modules is not None)
    if not some:
        return "every configuration has"
    return (f"every configuration of every module has ({some} of some "
            f"modules left out)")


def oracle(table: OutcomeTable) -> Optional[float]:
    """The geometric mean over kernels of each kernel's best measured
    speedup: what a tree that knew every kernel's best configuration would
    reach (profiling cost aside)."""
    return _geometric_mean([max(k.speedup.values()) for k in table.kernels
                            if k.speedup])


def path_groups(kernel: KernelOutcome) -> List[Tuple[List[Tuple[str, bool]],
                                                     List[str]]]:
    """The distinct search paths of `kernel`, each with the configurations
    that took it, in the order of their first configuration."""
    groups: List[Tuple[List[Tuple[str, bool]], List[str]]] = []
    for name, path in kernel.paths.items():
        for steps, names in groups:
            if steps == path:
                names.append(name)
                break
        else:
            groups.append((path, [name]))
    return groups


def _parting(paths: List[List[Tuple[str, bool]]]) -> int:
    """The position of the first candidate where `paths` differ."""
    common = 0
    while all(len(p) > common for p in paths) and all(
            p[common] == paths[0][common] for p in paths):
        common += 1
    return common


def path_summary(table: OutcomeTable, shown: int = 8) -> List[str]:
    """Where the metrics collected changed what the searches did: how many
    kernels took one path under every configuration, on how many the paths
    part at a different candidate (the ranking, which the metrics feed,
    differed) and on how many only at whether one candidate won (its
    timing); for those (the first `shown`) each path from where they part,
    with the configurations that took it. Nothing when the table records no
    paths."""
    recorded = [k for k in table.kernels if len(k.paths) >= 2]
    if not recorded:
        return []
    # (kernel, its paths' groups, where they part) of the kernels whose
    # configurations took more than one path.
    split = []
    for kernel in recorded:
        groups = path_groups(kernel)
        if len(groups) > 1:
            split.append((kernel, groups,
                          _parting([steps for steps, _ in groups])))

    def ranked_apart(groups, at):
        paths = [steps for steps, _ in groups]
        names = {p[at][0] for p in paths if len(p) > at}
        return len(names) > 1 or any(len(p) <= at for p in paths)

    ranking = sum(1 for _, groups, at in split if ranked_apart(groups, at))
    lines = [f"Search paths: on {len(recorded) - len(split)} of "
             f"{len(recorded)} kernels every configuration tried the same "
             f"candidates and kept the same; on {ranking} the metrics "
             f"collected changed which candidate came next; on "
             f"{len(split) - ranking} the same candidate won under some "
             f"configurations and lost under others (its timing)."]
    for kernel, groups, common in split[:shown]:
        parts = []
        for steps, names in groups:
            tail = ", ".join(f"{rewrite}{' (won)' if won else ''}"
                             for rewrite, won in steps[common:]) or "nothing"
            parts.append(f"{' / '.join(names)}: {tail}")
        lines.append(f"{kernel.name}, from candidate {common + 1}: "
                     + "; ".join(parts))
    if len(split) > shown:
        lines.append(f"... and {len(split) - shown} more kernels.")
    return lines


def markdown(table: OutcomeTable, catalog=None) -> str:
    """The summary as a Markdown table, the oracle last."""
    common = len(common_kernels(table))
    lines = ["| configuration | kernels | geometric mean speedup | "
             f"on the {common} kernels {common_scope(table)} | metrics | "
             "replay passes | seconds |",
             "| --- | --- | --- | --- | --- | --- | --- |"]

    def times(value):
        return f"{value:.3f}x" if value else "-"

    for s in summarize(table, catalog):
        count = "-" if s.metric_count is None else str(s.metric_count)
        lines.append(f"| {s.name} | {s.kernels} | {times(s.geometric_mean)} "
                     f"| {times(s.common_mean)} | {count} | "
                     f"{s.cost_passes:g} | {s.cost_seconds:.3f} |")
    measured = sum(1 for k in table.kernels if k.speedup)
    lines.append(f"| per-kernel oracle | {measured} | "
                 f"{times(oracle(table))} | - | - | - | - |")
    paths = path_summary(table)
    if paths:
        lines += [""] + [f"- {line}" for line in paths]
    return "\n".join(lines)


def _spread(ratios: List[float]) -> str:
    """The median (min-max) of `ratios`, or '-' when there are none."""
    if not ratios:
        return "-"
    return (f"{statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f})")


def compare(first: OutcomeTable, again: OutcomeTable,
            noise: float = 0.01) -> str:
    """How `again` measured the (kernel, configuration) pairs both tables
    hold against `first` (the same kernels measured twice: another run,
    another host, other tools), as Markdown: on how many pairs the search
    kept the same variant (its accepted rewrites) and tried the same
    candidates, on how many the replay passes are equal, and the ratios
    again / first of the verified speedups and of the profiling seconds
    (over the pairs that profile in both), then each kernel whose speedup
    moved beyond the noise under some configuration: a ratio above
    1 + `noise` or below 1 / (1 + `noise`), the learner's band. Tables
    whose budgets differ, or whose configurations of one name collect
    different things, are compared all the same, with a warning first."""
    warnings = []
    if first.budget != again.budget:
        warnings.append(f"Warning: the searches had budgets {first.budget} "
                        f"and {again.budget}.")
    for configuration in first.configurations:
        other = again.configuration(configuration.name)
        if other and (set(other.groups), set(other.metrics)) != \
                (set(configuration.groups), set(configuration.metrics)):
            warnings.append(f"Warning: '{configuration.name}' collects "
                            f"different metrics in the two tables.")
    by_name = {k.name: k for k in first.kernels}
    pairs = []
    for kernel in again.kernels:
        before = by_name.get(kernel.name)
        if before is None:
            continue
        for name in kernel.speedup:
            if name in before.speedup:
                pairs.append((before, kernel, name))
    if not pairs:
        return "\n".join(warnings + ["No (kernel, configuration) pair is "
                                     "measured in both tables."])

    def kept(kernel, name):
        return [rewrite for rewrite, won in kernel.paths.get(name, []) if won]

    with_paths = [(a, b, n) for a, b, n in pairs
                  if n in a.paths and n in b.paths]
    with_costs = [(a, b, n) for a, b, n in pairs
                  if n in a.costs and n in b.costs]
    speedups = {(a.name, n): b.speedup[n] / a.speedup[n]
                for a, b, n in pairs}
    seconds = [b.costs[n][1] / a.costs[n][1] for a, b, n in with_costs
               if a.costs[n][0] > 0 and b.costs[n][0] > 0
               and a.costs[n][1] > 0]
    kernels = len({a.name for a, _, _ in pairs})
    lines = warnings + [
        f"{len(pairs)} (kernel, configuration) pairs of {kernels} kernels "
        f"are measured in both tables.", "",
        "| | again / first |", "| --- | --- |"]
    if with_paths:
        same_kept = sum(1 for a, b, n in with_paths
                        if kept(a, n) == kept(b, n))
        same_tried = sum(1 for a, b, n in with_paths
                         if a.paths[n] == b.paths[n])
        lines.append(f"| kept variant (the accepted rewrites) | the same on "
                     f"{same_kept} of {len(with_paths)} |")
        lines.append(f"| candidates tried, in order, and which won | the "
                     f"same on {same_tried} of {len(with_paths)} |")
    if with_costs:
        equal = sum(1 for a, b, n in with_costs
                    if a.costs[n][0] == b.costs[n][0])
        lines.append(f"| replay passes | equal on {equal} of "
                     f"{len(with_costs)} |")
    lines.append(f"| verified speedup, median (min-max) | "
                 f"{_spread(list(speedups.values()))} |")
    if with_costs:
        lines.append(f"| profiling seconds, median (min-max), {len(seconds)} "
                     f"pairs that profile | {_spread(seconds)} |")
    moved = {}
    for (kernel, _), ratio in speedups.items():
        if abs(math.log(ratio)) > math.log1p(noise):
            moved.setdefault(kernel, []).append(ratio)
    band = f"a factor {1 + noise:g}"
    if moved:
        lines.append("")
        lines.append(f"Speedups that moved by more than {band}:")
        for name, ratios in moved.items():
            lines.append(f"- {name}: {_spread(ratios)} on {len(ratios)} "
                         f"configuration(s)")
    else:
        lines.append("")
        lines.append(f"No speedup moved by more than {band}.")
    return "\n".join(lines)
