"""A language model rewrites a `@triton.jit` kernel's source.

`rewrite(kernel, *args, grid=..., outputs=..., model=..., **meta)` shows a
chat model the kernel's source, the call (each argument's shape and dtype,
the meta-parameters, the grid, warps and stages), the GPU, the caller's
time and the bottleneck facts of AutoProf's profile of the launch
(`docs/diagnosis.md`), and asks for a faster kernel with the same
parameters. Each answer must be one fenced ```python block: a module that
imports nothing but `triton`, `triton.language` and `math`, defines the
kernel under its name with the same parameters in the same order (and any
`@triton.jit` helpers), and holds nothing else but constant assignments and
docstrings. An answer of another shape gets one repair round (the model is
told why), then counts as rejected. A usable answer is written to a file
under the cache directory and imported (so importing it runs nothing the
model wrote but Triton's decorator; Triton's compiler calls the Python
functions a body names, so a body may name only what `triton.language` and
`math` define, never through another module, an underscore name, getattr or
hasattr), launched with the caller's grid and
configuration on copies of every tensor, kept only when the tensors not
named in `outputs` come back unchanged and the outputs match the original
kernel's, and timed. The next request shows the fastest version so far and
how each earlier answer ended.

The model is asked through `autoprof-chat` (the optimizer's chat client:
OpenAI-compatible or Anthropic APIs, retries, an answer cache by request,
the key read from the environment and never printed). Needs Triton, PyTorch
and a CUDA GPU to run; the checks of an answer need neither.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import pathlib
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .tools import run_tool
from .triton import Space, TritonError, _Call, _dtype_name, default_cache_dir

# Modules an answer may import.
_ALLOWED_IMPORTS = {"triton", "triton.language", "math"}

SYSTEM_PROMPT = (
    "You are an expert in Triton and NVIDIA GPUs. You rewrite Triton kernels "
    "to run faster while computing the same results.")


@dataclass
class SourceRewrite:
    """A rewritten kernel that was verified and ran faster than the
    caller's."""
    source: str
    kernel: object
    us: float
    baseline_us: float
    path: pathlib.Path


@dataclass
class Answer:
    """One model answer and what became of it."""
    text: str
    code: Optional[str] = None
    reason: Optional[str] = None
    repaired: bool = False
    from_cache: bool = False
    tokens: Tuple[int, int] = (0, 0)


def extract_python(text: str) -> Tuple[Optional[str], Optional[str]]:
    """The code of the one fenced ```python (or untagged) block of `text`,
    or why there is none."""
    blocks = re.findall(r"^```([\w+-]*)[ \t]*\n(.*?)^```", text, re.S | re.M)
    if not blocks:
        return None, "the answer has no fenced code block"
    if len(blocks) > 1:
        return None, (f"the answer has {len(blocks)} fenced code blocks; "
                      "one is needed")
    language, code = blocks[0]
    if language.lower() not in ("", "python", "py"):
        return None, (f"the code block is tagged '{language}'; a Python "
                      "module is needed")
    return code, None


def _dotted(node) -> Optional[str]:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _constant(node) -> bool:
    """A literal, a negated literal, or tl.constexpr(literal)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand,
                                                    ast.Constant):
        return True
    if isinstance(node, ast.Call) and not node.keywords and \
            len(node.args) == 1 and (_dotted(node.func) or "").endswith(
                "constexpr"):
        return _constant(node.args[0])
    return False


def check_source(code: str, name: str,
                 params: Sequence[str]) -> Optional[str]:
    """Why `code` cannot stand in for the kernel `name(params...)`, or None.
    Importing an accepted module runs nothing but imports of triton,
    triton.language and math, constant assignments and Triton's decorator."""
    try:
        module = ast.parse(code)
    except SyntaxError as error:
        return f"the code does not parse: {error.msg} (line {error.lineno})"
    jit_names = {"triton.jit"}
    # Module-level names bound to modules, and the module each stands for.
    modules: Dict[str, str] = {}
    found = None
    for node in module.body:
        where = f"line {node.lineno}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in _ALLOWED_IMPORTS:
                    return (f"{where} imports '{alias.name}'; only triton, "
                            "triton.language and math may be imported")
                if alias.asname:
                    modules[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    modules[top] = top
            continue
        if isinstance(node, ast.ImportFrom):
            module_name = node.module or ""
            for alias in node.names:
                full = f"{module_name}.{alias.name}"
                if module_name not in _ALLOWED_IMPORTS and \
                        full not in _ALLOWED_IMPORTS:
                    return (f"{where} imports from '{module_name}'; only "
                            "triton, triton.language and math may be "
                            "imported")
                if full == "triton.jit":
                    jit_names.add(alias.asname or alias.name)
                if full in _ALLOWED_IMPORTS or full.startswith(
                        "triton.language."):
                    modules[alias.asname or alias.name] = full
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value,
                                                     ast.Constant):
            continue  # a docstring
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) \
                else [node.target]
            if not all(isinstance(t, ast.Name) for t in targets) or \
                    node.value is None or not _constant(node.value):
                return (f"{where} assigns something other than a constant "
                        "to a name")
            continue
        if isinstance(node, ast.FunctionDef):
            decorators = [_dotted(d) for d in node.decorator_list]
            if len(decorators) != 1 or decorators[0] not in jit_names:
                return (f"{where}: '{node.name}' is not a function decorated "
                        "with @triton.jit alone")
            arguments = node.args
            for default in arguments.defaults + [
                    d for d in arguments.kw_defaults if d is not None]:
                if not _constant(default):
                    return (f"{where}: a default value of '{node.name}' is "
                            "not a constant")
            for arg in arguments.args + arguments.kwonlyargs:
                if arg.annotation is not None and \
                        _dotted(arg.annotation) is None:
                    return (f"{where}: the annotation of '{arg.arg}' is not "
                            "a name such as tl.constexpr")
            if node.returns is not None and _dotted(node.returns) is None:
                return f"{where}: the return annotation is not a name"
            why = _check_body(node, modules)
            if why:
                return why
            if node.name == name:
                found = node
            continue
        return (f"{where} is a {type(node).__name__} statement; the module "
                "may hold only imports, constants and @triton.jit functions")
    if found is None:
        return f"the code does not define the kernel '{name}'"
    given = [arg.arg for arg in found.args.args]
    if given != list(params) or found.args.vararg or found.args.kwarg or \
            found.args.kwonlyargs:
        return (f"'{name}' takes ({', '.join(given)}); the kernel's "
                f"parameters are ({', '.join(params)})")
    return None


# Attributes of the triton module a kernel's body may name.
_TRITON_NAMES = {"language", "jit", "cdiv", "next_power_of_2"}


def _module_allowed(module) -> bool:
    name = getattr(module, "__name__", "")
    return name == "math" or name == "triton.language" or \
        name.startswith("triton.language.")


def _check_chain(chain: List[str], path: str,
                 root: str) -> Optional[str]:
    """Why the attribute chain `chain` from the module `path` reaches
    something a kernel's body may not name, as written from `root`, or
    None: every module on the way must be triton.language's own or math
    (triton.language.core binds builtins and inspect, which Triton's
    compiler would let a body call)."""
    written = [root]
    if path == "triton":
        if chain[0] not in _TRITON_NAMES:
            return f"{root}.{chain[0]}"
        if chain[0] != "language":
            return None
        path, chain = "triton.language", chain[1:]
        written.append("language")
    try:
        current = importlib.import_module(path)
    except ImportError:
        # Without Triton: only names of the module itself, or of tl.math.
        allowed = len(chain) <= 1 or (len(chain) == 2 and chain[0] == "math")
        return None if allowed else ".".join(written + chain)
    walked = written
    for attribute in chain:
        walked.append(attribute)
        current = getattr(current, attribute, None)
        if current is None:
            return ".".join(walked) + " (which does not exist)"
        if inspect.ismodule(current) and not _module_allowed(current):
            return ".".join(walked) + f" (the module {current.__name__})"
    return None


def _check_body(function: ast.FunctionDef,
                modules: Dict[str, str]) -> Optional[str]:
    """Why the body of `function` names something Triton's compiler would
    let it run as Python, or None."""
    parents = {}
    for node in ast.walk(function):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(function):
        where = f"line {getattr(node, 'lineno', function.lineno)}"
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            return f"{where} names the attribute '{node.attr}'"
        if not isinstance(node, ast.Name):
            continue
        if node.id.startswith("_") or node.id in ("getattr", "hasattr"):
            return f"{where} names '{node.id}'"
        if node.id not in modules or isinstance(node.ctx, ast.Store):
            continue
        # A module: only as the root of an attribute chain.
        chain, current = [], node
        while isinstance(parents.get(current), ast.Attribute) and \
                parents[current].value is current:
            current = parents[current]
            chain.append(current.attr)
        if not chain:
            return (f"{where} uses the module '{node.id}' other than by "
                    "naming one of its functions or types")
        why = _check_chain(chain, modules[node.id], node.id)
        if why:
            return f"{where} names {why}"
    return None


def load_kernel(code: str, name: str, directory) -> Tuple[object,
                                                           pathlib.Path]:
    """Imports checked `code` from a file of `directory` named by its hash
    (Triton reads a kernel's source from its file); returns its kernel
    `name` and the file."""
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(code.encode()).hexdigest()[:16]
    path = directory / f"rewrite_{digest}.py"
    path.write_text(code)
    module_name = f"autoprof_triton_rewrite_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise TritonError(f"importing the answer failed: {error}") from None
    kernel = getattr(module, name, None)
    if kernel is None or not hasattr(kernel, "arg_names"):
        raise TritonError(f"the answer's '{name}' is not a Triton kernel")
    return kernel, path


def kernel_source(kernel) -> str:
    """The source of a `@triton.jit` function."""
    source = getattr(kernel, "src", None)
    fn = getattr(kernel, "fn", kernel)
    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        if source:
            return source
        raise TritonError("the kernel's source cannot be read") from None


def describe_arguments(names: Sequence[str], args: Sequence,
                       outputs: Sequence[str]) -> List[str]:
    """One line per runtime argument: tensors with shape, dtype and
    strides, scalars with their value."""
    lines = []
    for name, value in zip(names, args):
        role = " (written: an output)" if name in outputs else ""
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            strides = tuple(value.stride()) if hasattr(value, "stride") \
                else None
            lines.append(f"- {name}: tensor of {_dtype_name(value)}, shape "
                         f"{tuple(value.shape)}"
                         + (f", strides {strides}" if strides else "")
                         + role)
        else:
            lines.append(f"- {name}: {type(value).__name__} = {value!r}{role}")
    return lines


def build_prompt(source: str, name: str, params: Sequence[str],
                 arguments: Sequence[str], meta: Dict[str, object],
                 grid: Sequence[int], num_warps: int, num_stages: int,
                 device: str, baseline_us: float, facts: Dict[str, str],
                 history: Sequence[Dict[str, object]],
                 fastest: Optional[Tuple[str, float]]) -> str:
    """The request for a rewrite."""
    holds = sorted(k for k, v in facts.items() if v == "true")
    ruled_out = sorted(k for k, v in facts.items() if v == "false")
    unknown = sorted(k for k, v in facts.items() if v == "unknown")
    lines = [
        f"Rewrite this Triton kernel to run faster on an {device}, computing "
        "the same results.", "", "```python", source.rstrip(), "```", "",
        "The call:", *arguments,
        "- meta-parameters: " + (", ".join(f"{k}={v}" for k, v in
                                           meta.items()) or "none"),
        f"- grid: {tuple(grid)}; num_warps={num_warps}, "
        f"num_stages={num_stages}",
        f"- time: {baseline_us:.2f} us per launch", "",
        "What a profile of this launch establishes:",
        "- holds: " + (", ".join(holds) or "none"),
        "- does not hold: " + (", ".join(ruled_out) or "none"),
        "- unknown (not collected): " + (", ".join(unknown) or "none"), ""]
    if fastest:
        lines += [f"The fastest version so far ({fastest[1]:.2f} us):", "",
                  "```python", fastest[0].rstrip(), "```", ""]
    if history:
        lines.append("Earlier answers:")
        for number, entry in enumerate(history, 1):
            outcome = f"verified, {entry['us']:.2f} us" \
                if entry.get("status") == "verified" else \
                f"{entry.get('status')}: {entry.get('reason')}"
            lines.append(f"{number}. {outcome}")
        lines.append("")
    lines += [
        "Answer with exactly one ```python code block holding a module that "
        "imports only triton, triton.language (as tl) and math and defines "
        f"`@triton.jit def {name}({', '.join(params)})` with these parameters "
        "in this order (constexpr ones keep their names: the call passes them "
        "by name), plus any @triton.jit helpers and constants it needs. The "
        "launch stays as it is: the same grid, meta-parameters, num_warps "
        "and num_stages. Write the outputs completely; do not write any "
        "other tensor."]
    return "\n".join(lines)


def ask(messages: List[Dict[str, str]], model: Optional[str],
        endpoint: Optional[str], api_style: str, cache_dir,
        replay_only: bool, chat_tool: Optional[str]) -> Dict[str, object]:
    """One request through autoprof-chat; its answer as a dict."""
    with tempfile.TemporaryDirectory() as scratch:
        request = pathlib.Path(scratch) / "request.json"
        request.write_text(json.dumps({"system": SYSTEM_PROMPT,
                                       "messages": messages}))
        arguments = [str(request), f"--api-style={api_style}"]
        if model:
            arguments.append(f"--model={model}")
        if endpoint:
            arguments.append(f"--endpoint={endpoint}")
        if cache_dir:
            arguments.append(f"--cache-dir={cache_dir}")
        if replay_only:
            arguments.append("--replay-only")
        proc = run_tool("autoprof-chat", arguments, chat_tool)
    return json.loads(proc.stdout)


def propose(prompt: str, check: Callable[[str], Optional[str]],
            chat: Callable[[List[Dict[str, str]]], Dict[str, object]]
            ) -> Answer:
    """Asks once, and once more with the reason when the answer has no
    usable code; `check` says why code is unusable."""
    messages = [{"role": "user", "content": prompt}]
    answer = None
    for attempt in range(2):
        reply = chat(messages)
        text = str(reply.get("text", ""))
        code, reason = extract_python(text)
        if code is not None:
            reason = check(code)
        answer = Answer(text=text, code=code if reason is None else None,
                        reason=reason, repaired=attempt > 0,
                        from_cache=bool(reply.get("from_cache")),
                        tokens=(int(reply.get("prompt_tokens", 0)),
                                int(reply.get("completion_tokens", 0))))
        if reason is None:
            return answer
        messages += [{"role": "assistant", "content": text},
                     {"role": "user", "content":
                      f"The answer cannot be used: {reason}. Answer again "
                      "with exactly one ```python code block as asked."}]
    return answer


def rewrite(kernel, *args, grid, outputs: Sequence[str],
            model: Optional[str] = None, endpoint: Optional[str] = None,
            api_style: str = "openai", budget: int = 2,
            num_warps: int = 4, num_stages: int = 3, cache_dir=None,
            replay_only: bool = False, tool: Optional[str] = None,
            chat_tool: Optional[str] = None, tree: Optional[str] = None,
            rtol: Optional[float] = None, log: Optional[list] = None,
            **meta) -> Optional[SourceRewrite]:
    """Asks the model `budget` times for a faster source of
    `kernel(*args, **meta)` launched on `grid` with `num_warps` and
    `num_stages`; returns the fastest verified answer that beats the
    caller's kernel by 2% or more, or None. `outputs` names the arguments
    the kernel writes; `rtol` is as for `optimize`. Answers and the
    imported answers' files are kept under `cache_dir` (by default
    ~/.cache/autoprof/triton); `replay_only` answers from that cache alone.
    `model`, `endpoint` and `api_style` choose the model as autoprof-chat
    does (by default from $OPENAI_MODEL and $OPENAI_BASE_URL). `log`, when
    given, receives one dict per answer: its status (verified, rejected,
    failed), reason, time, code and tokens."""
    call = _Call(kernel, args, grid, outputs, Space(), num_warps,
                 num_stages, rtol, meta)
    import torch

    cache = pathlib.Path(cache_dir or default_cache_dir())
    name = getattr(getattr(kernel, "fn", kernel), "__name__", None)
    if not name:
        raise TritonError("the kernel has no name")
    params = list(kernel.arg_names)
    source = kernel_source(kernel)
    reference, copied, compiled, untouched = call.run(call.base)
    if not untouched:
        raise TritonError("the caller's kernel writes a tensor that outputs "
                          f"({', '.join(outputs)}) does not name")
    baseline_us = call.time(call.base, copied)
    facts = call.facts(compiled, tool, tree)
    arguments = describe_arguments(call.names, args, outputs)
    device = torch.cuda.get_device_name()

    def chat(messages):
        return ask(messages, model, endpoint, api_style, cache / "answers",
                   replay_only, chat_tool)

    history: List[Dict[str, object]] = []
    best: Optional[SourceRewrite] = None
    for _ in range(budget):
        prompt = build_prompt(source, name, params, arguments, call.fixed,
                              call.grid_of(call.base), num_warps,
                              num_stages, device, baseline_us, facts,
                              history,
                              (best.source, best.us) if best else None)
        answer = propose(prompt, lambda code: check_source(code, name,
                                                           params), chat)
        entry: Dict[str, object] = {"repaired": answer.repaired,
                                    "from_cache": answer.from_cache,
                                    "tokens": list(answer.tokens)}
        if answer.code is None:
            entry.update(status="rejected", reason=answer.reason)
        else:
            entry["code"] = answer.code
            try:
                candidate, path = load_kernel(answer.code, name,
                                              cache / "rewrites")
            except TritonError as error:
                entry.update(status="failed", reason=str(error))
            else:
                entry.update(call.evaluate(call.base, reference, candidate))
                if entry["status"] == "verified" and entry["us"] < (
                        best.us if best else baseline_us * 0.98):
                    best = SourceRewrite(answer.code, candidate,
                                         entry["us"], baseline_us, path)
        history.append(entry)
        if log is not None:
            log.append(dict(entry))
    return best
