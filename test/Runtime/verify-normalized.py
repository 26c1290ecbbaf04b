"""Normalizes every module of the given corpora (autoprof-normalize-kernels)
and verifies each normalized kernel against the original module on the GPU
(autoprof-verify-kernels, verification only: sunk constants make the
parameter lists differ). A kernel the verifier rejects, or a module the
passes fail on, is a failure; a kernel without a single evaluation job (a
launch in a host loop) is reported as skipped with the reason. Modules run
side by side (corpus_args.jobs()).
Prints one line per module and a final "N modules, N kernels verified, N
skipped, N failed" line.
Usage: verify-normalized.py AUTOPROF_OPT OUT_DIR CORPUS_DIR... [--worker W]"""

import pathlib
import re
import subprocess
import sys

import corpus_args

args = sys.argv[1:]
worker = None
if "--worker" in args:
    worker = args[args.index("--worker") + 1]
    del args[args.index("--worker"):args.index("--worker") + 2]
opt, out = args[0], pathlib.Path(args[1])
corpora = [pathlib.Path(a) for a in args[2:]]
out.mkdir(parents=True, exist_ok=True)
diagnostic = re.compile(r"\b(remark|warning|error): (.*)$")


def verify(module):
    """Returns (name, verified, skipped reasons, failure or None)."""
    name = f"{module.parent.name}/{module.stem}"
    normalized = out / f"{module.parent.name}-{module.stem}.mlir"
    proc = subprocess.run([opt, str(module), "--autoprof-normalize-kernels",
                           "-o", str(normalized)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return name, 0, [], ("normalization failed: "
                             + proc.stderr.strip()[-400:])
    options = f"reference={module.resolve()}"
    if worker:
        options += f" worker={worker}"
    proc = subprocess.run([opt, str(normalized),
                           f"--autoprof-verify-kernels={options}",
                           "-o", "/dev/null"], capture_output=True, text=True)
    verified, skipped, errors = 0, [], []
    for line in proc.stderr.splitlines():
        match = diagnostic.search(line)
        if not match:
            continue
        kind, message = match.groups()
        if kind == "remark" and " verified against the reference" in message:
            verified += 1
        elif kind == "warning" and " not verified: " in message:
            skipped.append(message)
        elif kind == "error":
            errors.append(message)
    if proc.returncode != 0 or errors:
        return name, verified, skipped, ("; ".join(errors)[:600]
                                         or proc.stderr.strip()[-400:])
    return name, verified, skipped, None


modules = [m for corpus in corpora for m in sorted(corpus.glob("*.mlir"))]
results = list(corpus_args.run_each(verify, modules))
verified = skipped = failed = 0
for name, ok, skips, failure in results:
    verified += ok
    skipped += len(skips)
    if failure:
        failed += 1
        print(f"FAILED {name}: {failure}")
        continue
    line = f"{name}: {ok} verified"
    for reason in skips:
        line += f"; skipped {reason}"
    print(line)
print(f"{len(results)} modules, {verified} kernels verified, {skipped} "
      f"skipped, {failed} failed")
