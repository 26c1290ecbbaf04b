"""Profiling trees as Python objects: `autoprof-learn --print-tree=FILE`
prints a tree file's tree as JSON (a split per feature test, a leaf per
metric selection), which `load_tree` reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple, Union

from . import files
from .catalog import CatalogError
from .tools import ToolError, run_tool

_SYMBOLS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@dataclass
class Leaf:
    id: int
    groups: List[str] = field(default_factory=list)
    metrics: List[str] = field(default_factory=list)
    summary: str = ""

    def label(self) -> str:
        what = ", ".join(self.groups + self.metrics) or "nothing"
        return f"#{self.id}: {what}"


@dataclass
class Split:
    id: int
    feature: str
    comparison: str
    threshold: float
    missing: str
    then: "Node"
    otherwise: "Node"

    def label(self) -> str:
        return (f"#{self.id}: {self.feature} "
                f"{_SYMBOLS.get(self.comparison, self.comparison)} "
                f"{self.threshold:g}")


Node = Union[Leaf, Split]


@dataclass
class Tree:
    name: str
    chip: str
    root: Node

    def leaves(self) -> List[Leaf]:
        found, stack = [], [self.root]
        while stack:
            node = stack.pop()
            if isinstance(node, Leaf):
                found.append(node)
            else:
                stack.extend([node.otherwise, node.then])
        return found

    def path_to(self, leaf_id: int) -> Optional[List[Tuple[Node, str]]]:
        """The nodes from the root to the leaf numbered `leaf_id`, each with
        the branch taken from it ("yes", "no"; "" for the leaf), or None
        when the tree has no such leaf."""
        stack: List[Tuple[Node, List[Tuple[Node, str]]]] = [(self.root, [])]
        while stack:
            node, above = stack.pop()
            if isinstance(node, Leaf):
                if node.id == leaf_id:
                    return above + [(node, "")]
                continue
            stack.append((node.otherwise, above + [(node, "no")]))
            stack.append((node.then, above + [(node, "yes")]))
        return None


def _node(document) -> Node:
    if document["kind"] == "split":
        return Split(document["id"], document["feature"],
                     document["comparison"], float(document["threshold"]),
                     document["missing"], _node(document["then"]),
                     _node(document["else"]))
    return Leaf(document["id"], list(document.get("groups", [])),
                list(document.get("metrics", [])),
                document.get("summary", ""))


def parse_tree(document) -> Tree:
    try:
        return Tree(document["name"], document["chip"],
                    _node(document["root"]))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CatalogError(f"not a profiling tree: missing or bad "
                           f"{error}") from None
    except RecursionError:
        raise CatalogError("not a profiling tree: nested too deeply") \
            from None


def load_tree(path: str = "-", tree: Optional[str] = None,
              tool: Optional[str] = None) -> Tree:
    """The tree of the file `path` (the shipped starting tree for '-'),
    the one named `tree` when the file holds several, read through
    `autoprof-learn --print-tree`."""
    arguments = [f"--print-tree={path}"] + ([f"--tree={tree}"] if tree else [])
    try:
        if path != "-":
            # The tool would block on a FIFO or read /dev/zero forever.
            files.check_regular(path)
        proc = run_tool("autoprof-learn", arguments, tool)
        document = files.parse_json(proc.stdout, f"the tree of {path}")
    except (files.InputError, ToolError) as error:
        raise CatalogError(str(error)) from None
    return parse_tree(document)
