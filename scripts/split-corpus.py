#!/usr/bin/env python3
"""Splits the programs of the upstream corpus (test/Corpus/Upstream/programs)
into "tuned" programs, which tuning the optimizer may use, and "held_out"
programs, which it must never use, and writes the split to
test/Corpus/Upstream/split.json.

The rule, declared here and nowhere else:
  * the 33 programs the optimizer was tuned on before the split
    (TUNED_BEFORE_SPLIT) are always tuned: they cannot honestly be held out;
  * the other programs are ranked by the hex SHA-256 digest of
    "<seed>:<name>", and the first ceil(total / 3) of them, where total counts
    all programs, are held out; the rest are tuned.

The JSON: {"seed": S, "rule": "<one sentence>", "tuned": [names],
"held_out": [names]}, names sorted.

Usage: split-corpus.py [--seed S]            write split.json (seed 2026)
       split-corpus.py --check               fail unless split.json is what
                                             the rule gives for its seed and
                                             every program has one entry
       split-corpus.py --tuned-before-split  print TUNED_BEFORE_SPLIT, one
                                             name a line (for
                                             scripts/gen-upstream-corpus.sh)
"""

import argparse
import hashlib
import json
import math
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
CORPUS = REPO / "test" / "Corpus" / "Upstream"
DEFAULT_SEED = 2026

# The programs the optimizer was tuned on before the held-out split existed.
TUNED_BEFORE_SPLIT = (
    "add", "add_f16", "batch_matmul", "bias_add", "col_scale", "col_sum",
    "conv1d", "conv2d", "conv2d_channels", "copy", "depthwise_conv2d",
    "dequant_i8", "exp_tanh", "fill", "fused_relu_fma", "layernorm",
    "matmul", "matmul_bf16", "matmul_f16", "matmul_large", "matmul_ragged",
    "matvec", "maxpool", "outer_product", "row_max", "row_sum",
    "scale_bf16", "softmax", "sumpool", "transpose2d", "transpose3d",
    "truncf_f16", "vecmat",
)

RULE = ("The {count} programs the optimizer was tuned on before the split "
        "are tuned; the other programs are ranked by the hex SHA-256 digest "
        "of '<seed>:<name>', the first ceil(total / 3) of them (total counts "
        "all programs) are held out, and the rest are tuned.")


class SplitError(Exception):
    pass


def rank_key(seed, name):
    return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()


def compute_split(names, seed):
    """The split of `names` (all program names) for `seed`."""
    names = sorted(set(names))
    missing = sorted(set(TUNED_BEFORE_SPLIT) - set(names))
    if missing:
        raise SplitError("programs tuned before the split have no file: "
                         + ", ".join(f"{n}.mlir" for n in missing))
    new = [n for n in names if n not in TUNED_BEFORE_SPLIT]
    held = math.ceil(len(names) / 3)
    if held > len(new):
        raise SplitError(f"{len(names)} programs need {held} held out, but "
                         f"only {len(new)} are new: add programs")
    ranked = sorted(new, key=lambda n: rank_key(seed, n))
    held_out = sorted(ranked[:held])
    return {"seed": seed,
            "rule": RULE.format(count=len(TUNED_BEFORE_SPLIT)),
            "tuned": [n for n in names if n not in held_out],
            "held_out": held_out}


def program_names(programs):
    names = sorted(p.stem for p in programs.glob("*.mlir"))
    if not names:
        raise SplitError(f"no programs in {programs}")
    return names


def render(split):
    return json.dumps(split, indent=2) + "\n"


def check(split_path, programs, seed):
    """The problems of split_path: entries without files, files without
    entries, and any difference from what the rule gives."""
    try:
        stored = json.loads(split_path.read_text())
    except FileNotFoundError:
        return [f"{split_path} does not exist: run {pathlib.Path(__file__).name}"]
    except json.JSONDecodeError as error:
        return [f"{split_path} is not JSON: {error}"]
    if not isinstance(stored, dict):
        return [f"{split_path} holds no JSON object"]
    problems = []
    names = program_names(programs)
    tuned = stored.get("tuned", [])
    held_out = stored.get("held_out", [])
    listed = list(tuned) + list(held_out)
    for name in sorted(set(n for n in listed if listed.count(n) > 1)):
        problems.append(f"split.json lists {name} more than once")
    for name in names:
        if name not in listed:
            problems.append(f"programs/{name}.mlir has no entry in split.json")
    for name in sorted(set(listed) - set(names)):
        problems.append(f"split.json lists {name}, which has no program "
                        f"file programs/{name}.mlir")
    if seed is None:
        seed = stored.get("seed", DEFAULT_SEED)
    try:
        expected = compute_split(names, seed)
    except SplitError as error:
        return problems + [str(error)]
    for key in ("seed", "rule"):
        if stored.get(key) != expected[key]:
            problems.append(f"split.json's {key} is {stored.get(key)!r}, the "
                            f"rule gives {expected[key]!r}")
    for key in ("tuned", "held_out"):
        have, want = set(stored.get(key, [])), set(expected[key])
        if have != want or stored.get(key) != expected[key]:
            extra = sorted(have - want)
            lacking = sorted(want - have)
            detail = []
            if extra:
                detail.append("should not hold " + ", ".join(extra))
            if lacking:
                detail.append("should hold " + ", ".join(lacking))
            if not detail:
                detail.append("is not sorted")
            problems.append(f"split.json's {key} differs from the rule (seed "
                            f"{seed}): it " + "; it ".join(detail))
    if not problems and split_path.read_text() != render(expected):
        problems.append("split.json's content is right but not in the form "
                        "this script writes: rewrite it")
    return problems


def main():
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None,
                        help=f"the seed of the ranking (default "
                             f"{DEFAULT_SEED}; with --check, the seed "
                             f"split.json records)")
    parser.add_argument("--check", action="store_true",
                        help="recompute the split and fail if split.json "
                             "differs, a program has no entry or an entry "
                             "has no program")
    parser.add_argument("--tuned-before-split", action="store_true",
                        help="print the programs tuned before the split, one "
                             "a line, and exit")
    parser.add_argument("--programs", default=str(CORPUS / "programs"),
                        help="folder of programs (default: the upstream "
                             "corpus's)")
    parser.add_argument("--split", default=str(CORPUS / "split.json"),
                        help="the split file (default: "
                             "test/Corpus/Upstream/split.json)")
    args = parser.parse_args()
    if args.tuned_before_split:
        print("\n".join(TUNED_BEFORE_SPLIT))
        return 0
    programs = pathlib.Path(args.programs)
    split_path = pathlib.Path(args.split)
    try:
        if args.check:
            problems = check(split_path, programs, args.seed)
            for problem in problems:
                print(f"split-corpus: error: {problem}", file=sys.stderr)
            if problems:
                return 1
            stored = json.loads(split_path.read_text())
            print(f"split.json holds the seeded split (seed {stored['seed']}):"
                  f" {len(stored['tuned'])} tuned, "
                  f"{len(stored['held_out'])} held out")
            return 0
        seed = DEFAULT_SEED if args.seed is None else args.seed
        split = compute_split(program_names(programs), seed)
    except SplitError as error:
        print(f"split-corpus: error: {error}", file=sys.stderr)
        return 1
    split_path.write_text(render(split))
    print(f"wrote {split_path}: {len(split['tuned'])} tuned, "
          f"{len(split['held_out'])} held out (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
