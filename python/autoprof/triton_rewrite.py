"""A language model rewrites a `@triton.jit` kernel's source.

`rewrite(kernel, *args, grid=..., outputs=..., model=..., **meta)` shows a
chat model the kernel's source, the call (each argument's shape and dtype,
the meta-parameters, the grid, warps and stages), the GPU, the caller's
time and the bottleneck facts of AutoProf's profile of the launch
(`docs/diagnosis.md`), and asks for a faster kernel with the same
parameters. Each answer must be one fenced ```python block; an answer of
another shape, or whose module `check_source` refuses, gets one repair
round (the model is told why), then counts as rejected.

What a module may hold (`check_source`). Importing it must run nothing the
model wrote but Triton's decorator, and compiling it nothing but what
triton.language and math define, since Triton's compiler resolves every
name of a kernel's body and calls, as plain Python, whatever a call names
that is not one of Triton's own functions. So the module holds only:

- `import triton`, `import triton.language [as tl]`, `import math [as
  m]`; `from triton import jit`, `from triton import language [as tl]`,
  `from triton.language import NAME` and `from math import NAME` where
  NAME is something other than a module that the module defines itself (a
  function or class whose `__module__` is math or within triton.language,
  an instance of a class of triton.language such as tl.float32, or a
  plain number or string); never `*`. Without Triton to look at, NAME
  must be one of `_LANGUAGE_NAMES_WITHOUT_TRITON`. No name is bound twice
  to different things.
- docstrings, and constants: `NAME = c` or `NAME: annotation = c`, where
  `c` is a literal, a negated literal or `triton.language.constexpr(c)`
  (as tl.constexpr or an imported constexpr; nothing else whose name ends
  in constexpr).
- functions decorated with `@triton.jit` alone, the kernel under its name
  with the same parameters in the same order among them. A function takes
  named parameters only (no positional-only ones, *args or **kwargs, or
  type parameters), their defaults are constants, and every annotation
  (a parameter's, the return's, a module-level or a body's) is a name or
  an attribute chain that a body could name (tl.constexpr).

And a function's body names only its parameters and locals, the module's
functions, constants and names imported from triton.language and math,
the builtins Triton's compiler resolves (range, len, list, int, float,
isinstance, print, min, max), and modules only as the root of an
attribute chain that walks through triton.language's own modules and
math (each step resolved: tl.core.builtins is refused), ends on something
that is not a module and that they define as above (tl.core.partial,
functools' own, is refused), and of `triton` itself names only language,
cdiv and next_power_of_2. Of any other value (a tensor, a local, a call's
result) it takes only attributes of Triton's tensors, dtypes, constexprs
and tuples (`_VALUE_ATTRIBUTES`; a @triton.jit function's fn or
get_capture_scope are not among them), and none of a literal. No name or
attribute starts with an underscore; getattr and hasattr are not named;
and a body holds no nested def, class or lambda, import, global,
nonlocal, with or try.

A usable answer is written to a file under the cache directory and
imported (Triton reads a kernel's source from its file), launched with the
caller's grid and configuration on copies of every tensor (the outputs the
caller's kernel writes completely start as NaN or 0xA5 bytes, so an answer
must write them), kept only when the tensors not named in `outputs` come
back unchanged and the outputs match the original kernel's, and timed. The
next request shows the fastest version so far and how each earlier answer
ended. An answer is verified on the caller's call alone (one shape): a
caller that launches it on other shapes must verify it there.

The model is asked through `autoprof-chat` (the optimizer's chat client:
OpenAI-compatible or Anthropic APIs, retries, an answer cache by request,
the key read from the environment and never printed); a request that
fails counts as a failed round and the rounds go on. Needs Triton, PyTorch
and a CUDA GPU to run; the checks of an answer need neither.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import math
import pathlib
import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .tools import ToolError, run_tool
from .triton import Space, TritonError, _Call, _dtype_name, default_cache_dir

# Modules an answer may import.
_ALLOWED_IMPORTS = {"triton", "triton.language", "math"}

# What `from triton import NAME` may bind: the decorator, and the language.
_FROM_TRITON = {"jit", "language"}

# Names `from triton.language import NAME` may bind where Triton cannot be
# imported to look at NAME (where it can: any non-module triton.language
# defines).
_LANGUAGE_NAMES_WITHOUT_TRITON = frozenset({
    "arange", "bfloat16", "cdiv", "constexpr", "dot", "exp", "float16",
    "float32", "full", "int32", "int64", "load", "log", "max", "maximum",
    "min", "minimum", "num_programs", "program_id", "sqrt", "static_range",
    "store", "sum", "where", "zeros"})

# The submodules of triton.language (without Triton, a chain through them
# other than tl.math cannot be checked).
_LANGUAGE_SUBMODULES = frozenset({"core", "extra", "math", "random",
                                  "semantic", "standard", "target_info"})

# Attributes of the triton module a body may name besides `language`:
# plain arithmetic on constexprs.
_TRITON_NAMES = {"cdiv", "next_power_of_2"}

# The builtins a body may name: the ones Triton's compiler resolves in a
# kernel (print, min and max stand for Triton's own functions there); it
# knows no others.
_BUILTINS = frozenset({"float", "int", "isinstance", "len", "list", "max",
                       "min", "print", "range"})

# Attributes a body may take of a value (a parameter, a local, a call's
# result, what a chain through modules ends on): those of Triton's
# tensors, dtypes, constexprs, tuples and tensor descriptors as Triton 3.6
# defines them. Other values a body can hold, such as a @triton.jit
# function (whose fn, run or get_capture_scope reach plain Python), have
# none of these but `type`, a constexpr wrapper.
_VALUE_ATTRIBUTES = frozenset({
    # tensor methods
    "T", "abs", "advance", "argmax", "argmin", "associative_scan",
    "atomic_add", "atomic_and", "atomic_cas", "atomic_max", "atomic_min",
    "atomic_or", "atomic_xchg", "atomic_xor", "broadcast_to", "cast",
    "cdiv", "ceil", "cos", "cumprod", "cumsum", "erf", "exp", "exp2",
    "expand_dims", "flip", "floor", "gather", "histogram", "item", "log",
    "log2", "logical_and", "logical_or", "max", "min", "permute", "ravel",
    "reduce", "reduce_or", "reshape", "rsqrt", "sigmoid", "sin", "softmax",
    "sort", "split", "sqrt", "sqrt_rn", "store", "sum", "to", "trans",
    "view", "xor_sum",
    # tensor, constexpr and tuple fields
    "dtype", "shape", "numel", "type", "value", "values",
    # dtypes
    "name", "primitive_bitwidth", "int_bitwidth", "int_signedness",
    "fp_mantissa_width", "exponent_bias", "itemsize", "element_ty",
    "address_space", "const", "nbytes", "scalar", "get_block_shapes",
    "get_int_max_value", "get_int_min_value", "with_element_ty",
    "is_bf16", "is_block", "is_bool", "is_const", "is_dtype", "is_floating",
    "is_fp16", "is_fp32", "is_fp64", "is_fp8", "is_fp8e4b15", "is_fp8e4b8",
    "is_fp8e4nv", "is_fp8e5", "is_fp8e5b16", "is_int", "is_int1",
    "is_int16", "is_int32", "is_int64", "is_int8", "is_int_signed",
    "is_int_unsigned", "is_ptr", "is_standard_floating", "is_uint16",
    "is_uint32", "is_uint64", "is_uint8", "is_void",
    # tensor descriptors
    "block_shape", "block_type", "load", "scatter", "strides",
})

# Statements and expressions a body may not hold: they define code of
# their own (def, class, lambda), reach modules (import), another scope
# (global, nonlocal), or run Python's context managers and handlers.
_REFUSED_IN_BODY = tuple(getattr(ast, kind) for kind in (
    "FunctionDef", "AsyncFunctionDef", "ClassDef", "Lambda", "Import",
    "ImportFrom", "Global", "Nonlocal", "With", "AsyncWith", "Try",
    "TryStar") if hasattr(ast, kind))

# Literals, whose attributes a body may not take.
_LITERALS = (ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict,
             ast.Set)

_MISSING = object()

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


class _Scope:
    """What the module-level names of an answer stand for: a module
    ("module", its name), a name imported from a module ("import", its
    dotted path), one of the answer's functions ("function") or constants
    ("constant")."""

    def __init__(self):
        self.bound: Dict[str, Tuple[str, Optional[str]]] = {}

    def bind(self, name: str, kind: str, target: Optional[str] = None,
             where: str = "") -> Optional[str]:
        """Binds `name`; why not, when it already stands for something
        else (a check that took `tl` for triton.language would not hold
        for a `tl` rebound to something else)."""
        previous = self.bound.setdefault(name, (kind, target))
        if previous != (kind, target):
            return f"{where} binds '{name}' again, to something else"
        return None

    def kind(self, name: str) -> Optional[str]:
        return self.bound.get(name, (None, None))[0]

    def target(self, name: str) -> Optional[str]:
        return self.bound.get(name, (None, None))[1]

    def imported(self, name: str) -> bool:
        return self.kind(name) in ("module", "import")

    def resolve(self, node) -> Optional[str]:
        """The dotted path a name or attribute chain rooted at an import
        stands for (`tl.constexpr` with `import triton.language as tl`:
        triton.language.constexpr), else None."""
        dotted = _dotted(node)
        if dotted is None:
            return None
        root, _, rest = dotted.partition(".")
        if not self.imported(root):
            return None
        return self.target(root) + (f".{rest}" if rest else "")


def _constant(node, scope: _Scope) -> bool:
    """A literal, a negated literal, or tl.constexpr(constant): importing
    the module evaluates it, so a call is allowed only to
    triton.language.constexpr itself (not to anything whose name merely
    ends in constexpr)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand,
                                                    ast.Constant):
        return True
    if isinstance(node, ast.Call) and not node.keywords and \
            len(node.args) == 1 and \
            scope.resolve(node.func) == "triton.language.constexpr":
        return _constant(node.args[0], scope)
    return False


def _module_allowed(module) -> bool:
    name = getattr(module, "__name__", "")
    return name == "math" or name == "triton.language" or \
        name.startswith("triton.language.")


def _origin(value) -> str:
    """The module that defines `value`: its own for functions and classes,
    its type's for other objects."""
    if inspect.isclass(value) or callable(value):
        origin = getattr(value, "__module__", None)
    else:
        origin = type(value).__module__
    return origin if isinstance(origin, str) else "an unknown module"


def _belongs(value) -> bool:
    """Whether `value`, reached through triton.language or math, is theirs:
    a plain number or string (math.pi), a function or class they define
    (tl.load, tl.constexpr, math.exp), or an instance of a class
    triton.language defines (tl.float32). A function they merely import
    (triton.language.core binds functools.partial) is not."""
    if type(value) in (bool, int, float, str):
        return True
    origin = _origin(value)
    return origin == "math" or origin == "triton.language" or \
        origin.startswith("triton.language.")


def _import_language() -> Optional[object]:
    try:
        return importlib.import_module("triton.language")
    except ImportError:
        return None


def _check_imported_name(module_name: str, name: str) -> Optional[str]:
    """Why `from module_name import name` (triton.language or math) may
    not be written, or None: the name must be a non-module the module
    defines. Without Triton, a name of triton.language cannot be looked
    at: only those of a fixed list are allowed."""
    if module_name == "math":
        module = math
    else:
        module = _import_language()
        if module is None:
            return None if name in _LANGUAGE_NAMES_WITHOUT_TRITON else \
                "(which cannot be checked without Triton)"
    value = getattr(module, name, _MISSING)
    if value is _MISSING:
        return "(which does not exist)"
    if inspect.ismodule(value):
        return f"(the module {value.__name__})"
    if not _belongs(value):
        return f"(defined in {_origin(value)})"
    return None


def _check_import(node: ast.Import, scope: _Scope,
                  where: str) -> Optional[str]:
    for alias in node.names:
        if alias.name not in _ALLOWED_IMPORTS:
            return (f"{where} imports '{alias.name}'; only triton, "
                    "triton.language and math may be imported")
        if alias.asname:
            why = scope.bind(alias.asname, "module", alias.name, where)
        else:
            top = alias.name.split(".")[0]
            why = scope.bind(top, "module", top, where)
        if why:
            return why
    return None


def _check_from_import(node: ast.ImportFrom, scope: _Scope,
                       where: str) -> Optional[str]:
    """`from triton import jit`, `from triton import language [as tl]`,
    `from triton.language import NAME` and `from math import NAME` of a
    non-module that module defines; never `*`."""
    module_name = node.module or ""
    if node.level or module_name not in _ALLOWED_IMPORTS:
        return (f"{where} imports from '{'.' * node.level}{module_name}'; "
                "only triton, triton.language and math may be imported")
    for alias in node.names:
        full = f"{module_name}.{alias.name}"
        bound = alias.asname or alias.name
        if alias.name == "*":
            return (f"{where} imports * from '{module_name}'; import the "
                    "names it needs")
        if module_name == "triton":
            if alias.name not in _FROM_TRITON:
                return (f"{where} imports '{full}'; from triton only jit "
                        "and language may be imported")
            kind = "module" if alias.name == "language" else "import"
            why = scope.bind(bound, kind, full, where)
        else:
            why = _check_imported_name(module_name, alias.name)
            if why:
                return f"{where} imports {full} {why}"
            why = scope.bind(bound, "import", full, where)
        if why:
            return why
    return None


def _check_assignment(node, scope: _Scope, where: str) -> Optional[str]:
    """A module-level constant: `NAME = constant` or `NAME: annotation =
    constant` (importing the module evaluates the annotation too)."""
    targets = node.targets if isinstance(node, ast.Assign) \
        else [node.target]
    if not all(isinstance(t, ast.Name) for t in targets) or \
            node.value is None or not _constant(node.value, scope):
        return f"{where} assigns something other than a constant to a name"
    if isinstance(node, ast.AnnAssign):
        why = _check_annotation(node.annotation, scope)
        if why:
            return f"{where}: the annotation of '{node.target.id}' {why}"
    for target in targets:
        why = scope.bind(target.id, "constant", None, where)
        if why:
            return why
    return None


def _check_statement(node, scope: _Scope,
                     functions: List[ast.FunctionDef]) -> Optional[str]:
    """Why a module-level statement may not be in an answer, or None;
    collects the functions, whose bodies are checked once every
    module-level name is known."""
    where = f"line {node.lineno}"
    if isinstance(node, ast.Import):
        return _check_import(node, scope, where)
    if isinstance(node, ast.ImportFrom):
        return _check_from_import(node, scope, where)
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return None  # a docstring
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return _check_assignment(node, scope, where)
    if isinstance(node, ast.FunctionDef):
        decorators = [scope.resolve(d) for d in node.decorator_list]
        if decorators != ["triton.jit"]:
            return (f"{where}: '{node.name}' is not a function decorated "
                    "with @triton.jit alone")
        functions.append(node)
        return scope.bind(node.name, "function", None, where)
    return (f"{where} is a {type(node).__name__} statement; the module "
            "may hold only imports, constants and @triton.jit functions")


def check_source(code: str, name: str,
                 params: Sequence[str]) -> Optional[str]:
    """Why `code` cannot stand in for the kernel `name(params...)`, or None.
    Importing an accepted module runs nothing but imports of triton,
    triton.language and math, constant assignments, the lookup of
    annotations that triton.language and math define, and Triton's
    decorator; compiling it calls nothing but what triton.language and
    math define and the builtins of `_BUILTINS`."""
    try:
        module = ast.parse(code)
    except SyntaxError as error:
        return f"the code does not parse: {error.msg} (line {error.lineno})"
    scope = _Scope()
    functions: List[ast.FunctionDef] = []
    for node in module.body:
        why = _check_statement(node, scope, functions)
        if why:
            return why
    for function in functions:
        why = _check_signature(function, scope) or \
            _BodyCheck(scope, function).check(function.body)
        if why:
            return why
    found = [f for f in functions if f.name == name]
    if not found:
        return f"the code does not define the kernel '{name}'"
    given = [arg.arg for arg in found[-1].args.args]
    if given != list(params) or found[-1].args.kwonlyargs:
        return (f"'{name}' takes ({', '.join(given)}); the kernel's "
                f"parameters are ({', '.join(params)})")
    return None


def _check_annotation(node, scope: _Scope) -> Optional[str]:
    """Why an annotation may not be written (as the rest of a sentence
    that names it), or None. Python evaluates a parameter's annotation when
    it defines the function, a module-level one when it imports the
    module, and Triton's compiler a body's: each must be a name or an
    attribute chain that a body could name."""
    if _dotted(node) is None:
        return "is not a name such as tl.constexpr"
    why = _BodyCheck(scope).check([node])
    return f"is refused: {why}" if why else None


def _check_signature(function: ast.FunctionDef,
                     scope: _Scope) -> Optional[str]:
    """Why the parameters of `function` may not be written, or None:
    Triton's functions take named parameters (no positional-only ones, no
    *args or **kwargs), with constant defaults and annotations that are
    names; no parameter hides an import."""
    where, name = f"line {function.lineno}", function.name
    arguments = function.args
    if getattr(function, "type_params", None):
        return f"{where}: '{name}' has type parameters"
    if arguments.posonlyargs:
        return f"{where}: '{name}' has positional-only parameters"
    for star, arg in (("*", arguments.vararg), ("**", arguments.kwarg)):
        if arg is not None:
            return (f"{where}: '{name}' takes {star}{arg.arg}; a Triton "
                    "function's parameters each have a name")
    for default in arguments.defaults + [
            d for d in arguments.kw_defaults if d is not None]:
        if not _constant(default, scope):
            return (f"{where}: a default value of '{name}' is not a "
                    "constant")
    for arg in arguments.args + arguments.kwonlyargs:
        if scope.imported(arg.arg):
            return (f"{where}: the parameter '{arg.arg}' of '{name}' hides "
                    "an import")
        if arg.annotation is not None:
            why = _check_annotation(arg.annotation, scope)
            if why:
                return f"{where}: the annotation of '{arg.arg}' {why}"
    if function.returns is not None:
        why = _check_annotation(function.returns, scope)
        if why:
            return f"{where}: the return annotation of '{name}' {why}"
    return None


def _check_value_attributes(rest: Sequence[str],
                            written: str) -> Optional[str]:
    """Why attributes taken of a value (what a chain through modules ended
    on) may not be, or None: each must be one of `_VALUE_ATTRIBUTES`."""
    for attribute in rest:
        if attribute not in _VALUE_ATTRIBUTES:
            return (f"names {written}.{attribute} ('{attribute}' is not an "
                    "attribute of Triton's tensors, dtypes or constexprs)")
        written = f"{written}.{attribute}"
    return None


def _check_chain_without_triton(chain: List[str],
                                written: List[str]) -> Optional[str]:
    """`_check_chain` where Triton cannot be imported: a name of
    triton.language itself or of tl.math, then attributes of values."""
    if chain[0] == "math" and len(chain) >= 2:
        checked = 2
    elif chain[0] in _LANGUAGE_SUBMODULES:
        return (f"names {'.'.join(written + chain[:1])} (which cannot be "
                "checked without Triton)")
    else:
        checked = 1
    return _check_value_attributes(chain[checked:],
                                   ".".join(written + chain[:checked]))


def _check_chain(chain: List[str], path: str, root: str) -> Optional[str]:
    """Why the attribute chain `chain` taken of the module `path` (written
    `root`) reaches something a body may not name, or None. The chain
    walks through modules of triton.language's own and math (never
    another: triton.language.core binds builtins and inspect, whose
    functions Triton's compiler would call), must end on something that
    is not a module (a module passed as a value would carry the rest of
    its chain past this check) and that belongs to them (`_belongs`);
    what follows is attributes of that value (`_VALUE_ATTRIBUTES`). Of
    `triton` itself, only language, cdiv and next_power_of_2."""
    written = [root]
    if path == "triton":
        if chain[0] in _TRITON_NAMES:
            return _check_value_attributes(chain[1:], f"{root}.{chain[0]}")
        if chain[0] != "language":
            return f"names {root}.{chain[0]}"
        path, chain = "triton.language", chain[1:]
        written.append("language")
    current = _import_language() if path == "triton.language" else math
    if current is None:
        if not chain:
            return f"uses the module {'.'.join(written)} as a value"
        return _check_chain_without_triton(chain, written)
    for index, attribute in enumerate(chain):
        dotted = ".".join(written + chain[:index + 1])
        current = getattr(current, attribute, _MISSING)
        if current is _MISSING:
            return f"names {dotted} (which does not exist)"
        if inspect.ismodule(current):
            if not _module_allowed(current):
                return f"names {dotted} (the module {current.__name__})"
            continue
        if not _belongs(current):
            return f"names {dotted} (defined in {_origin(current)})"
        return _check_value_attributes(chain[index + 1:], dotted)
    return (f"uses the module {'.'.join(written + chain)} other than by "
            "naming one of its functions, types or constants")


class _BodyCheck:
    """Checks the statements of a function's body (or an annotation) for
    what Triton's compiler would let them run as Python: it resolves each
    name and attribute of a kernel and calls whatever function a call
    names, so a body may name only its parameters and locals, the answer's
    module-level names, the builtins of `_BUILTINS`, and chains through
    modules that `_check_chain` accepts; take only `_VALUE_ATTRIBUTES` of
    values; and hold none of `_REFUSED_IN_BODY`."""

    def __init__(self, scope: _Scope,
                 function: Optional[ast.FunctionDef] = None):
        self.scope = scope
        self.locals = set()
        if function is not None:
            arguments = function.args
            self.locals = {a.arg for a in arguments.args +
                           arguments.kwonlyargs}
            for node in ast.walk(function):
                if isinstance(node, ast.Name) and \
                        not isinstance(node.ctx, ast.Load):
                    self.locals.add(node.id)
        self.parents: Dict[ast.AST, ast.AST] = {}

    def check(self, nodes) -> Optional[str]:
        for root in nodes:
            for node in ast.walk(root):
                for child in ast.iter_child_nodes(node):
                    self.parents[child] = node
        for root in nodes:
            for node in ast.walk(root):
                why = self.check_node(node)
                if why:
                    return f"line {getattr(node, 'lineno', '?')} {why}"
        return None

    def check_node(self, node) -> Optional[str]:
        if isinstance(node, _REFUSED_IN_BODY):
            return (f"holds a {type(node).__name__}; a body may not define "
                    "functions, classes or lambdas, import, declare global "
                    "or nonlocal names, or use with or try")
        if isinstance(node, ast.AnnAssign) and \
                _dotted(node.annotation) is None:
            return "annotates a name with something other than a name"
        if isinstance(node, ast.Attribute):
            return self.check_attribute(node)
        if isinstance(node, ast.Name):
            return self.check_name(node)
        return None

    def check_attribute(self, node: ast.Attribute) -> Optional[str]:
        if node.attr.startswith("_"):
            return f"names the attribute '{node.attr}'"
        if isinstance(node.value, _LITERALS):
            # A literal's methods are Python's ("...".format), not Triton's.
            return f"takes the attribute '{node.attr}' of a literal"
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and \
                self.scope.kind(root.id) == "module":
            return None  # the chain is checked from its root
        if node.attr not in _VALUE_ATTRIBUTES:
            return (f"takes the attribute '{node.attr}', which is not an "
                    "attribute of Triton's tensors, dtypes or constexprs")
        return None

    def check_name(self, node: ast.Name) -> Optional[str]:
        name = node.id
        if name.startswith("_") or name in ("getattr", "hasattr"):
            return f"names '{name}'"
        if not isinstance(node.ctx, ast.Load):
            if self.scope.imported(name):
                return f"rebinds '{name}', which the module imports"
            return None
        if name in self.locals:
            return None
        kind = self.scope.kind(name)
        if kind == "module":
            return self.check_module_chain(node)
        if kind == "import":
            target = self.scope.target(name)
            if target.startswith(("triton.language.", "math.")):
                return None
            return f"names '{name}' ({target}), which only decorates"
        if kind in ("function", "constant") or name in _BUILTINS:
            return None
        return (f"names '{name}', which is not a parameter, a local, a name "
                "of the module or a builtin a kernel may use ("
                + ", ".join(sorted(_BUILTINS)) + ")")

    def check_module_chain(self, node: ast.Name) -> Optional[str]:
        """A module: only as the root of an attribute chain."""
        chain, current = [], node
        while isinstance(self.parents.get(current), ast.Attribute) and \
                self.parents[current].value is current:
            current = self.parents[current]
            chain.append(current.attr)
        if not chain:
            return (f"uses the module '{node.id}' other than by naming one "
                    "of its functions or types")
        return _check_chain(chain, self.scope.target(node.id), node.id)


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
        replay_only: bool, chat_tool: Optional[str],
        timeout: Optional[float] = None) -> Dict[str, object]:
    """One request through autoprof-chat; its answer as a dict. Raises
    ToolError when the tool is missing, fails or runs past `timeout`
    seconds, and ValueError when it prints anything but a JSON object
    whose text is a string."""
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
        proc = run_tool("autoprof-chat", arguments, chat_tool, timeout)
    try:
        reply = json.loads(proc.stdout)
    except ValueError as error:
        raise ValueError(f"autoprof-chat printed no JSON: {error}") from None
    if not isinstance(reply, dict) or \
            not isinstance(reply.get("text", ""), str):
        raise ValueError("autoprof-chat printed something other than an "
                         "answer (a JSON object with a text)")
    return reply


# Why an answer cut off at the model's output limit cannot be used.
_TRUNCATED = ("the answer was cut off at the model's output limit before "
              "its code block was complete; write a shorter module")


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
        if code is None and reply.get("truncated"):
            reason = _TRUNCATED  # rather than "no fenced code block"
        if code is not None:
            reason = check(code)
        # A reply may carry null token counts (a cached answer of an API
        # that reported none): they count as 0.
        answer = Answer(text=text, code=code if reason is None else None,
                        reason=reason, repaired=attempt > 0,
                        from_cache=bool(reply.get("from_cache")),
                        tokens=(int(reply.get("prompt_tokens") or 0),
                                int(reply.get("completion_tokens") or 0)))
        if reason is None:
            return answer
        messages += [{"role": "assistant", "content": text},
                     {"role": "user", "content":
                      f"The answer cannot be used: {reason}. Answer again "
                      "with exactly one ```python code block as asked."}]
    return answer


# What a round's attempt at usable code returns: the outcome (status,
# reason, us) and, when verified, the rewrite it would keep.
Attempt = Callable[[str], Tuple[Dict[str, object], Optional[SourceRewrite]]]


def search(budget: int,
           prompt_for: Callable[[List[Dict[str, object]],
                                 Optional[Tuple[str, float]]], str],
           check: Callable[[str], Optional[str]],
           chat: Callable[[List[Dict[str, str]]], Dict[str, object]],
           attempt: Attempt, threshold_us: float,
           log: Optional[list] = None) -> Optional[SourceRewrite]:
    """`budget` rounds of asking: each writes a request from the history
    and the fastest answer so far (`prompt_for`), gets an answer
    (`propose`, with `check` and `chat`) and tries its code (`attempt`).
    Returns the fastest verified rewrite under `threshold_us`, or None. A
    round whose request fails (autoprof-chat missing, failing, timing
    out, or printing no answer) is recorded as failed and the search goes
    on: the rewrites of earlier rounds are kept."""
    history: List[Dict[str, object]] = []
    best: Optional[SourceRewrite] = None
    for _ in range(budget):
        prompt = prompt_for(history, (best.source, best.us) if best
                            else None)
        entry, candidate = _round(prompt, check, chat, attempt)
        if candidate is not None and candidate.us < (
                best.us if best else threshold_us):
            best = candidate
        history.append(entry)
        if log is not None:
            log.append(dict(entry))
    return best


def _round(prompt: str, check, chat, attempt: Attempt
           ) -> Tuple[Dict[str, object], Optional[SourceRewrite]]:
    """One round of `search`: its log entry, and the verified rewrite."""
    try:
        answer = propose(prompt, check, chat)
    except (ToolError, ValueError, TypeError) as error:
        reason = " ".join(str(error).split())
        return ({"status": "failed", "repaired": False, "from_cache": False,
                 "tokens": [0, 0],
                 "reason": f"the model could not be asked: {reason}"}, None)
    entry: Dict[str, object] = {"repaired": answer.repaired,
                                "from_cache": answer.from_cache,
                                "tokens": list(answer.tokens)}
    if answer.code is None:
        entry.update(status="rejected", reason=answer.reason)
        return entry, None
    entry["code"] = answer.code
    outcome, candidate = attempt(answer.code)
    entry.update(outcome)
    return entry, candidate if entry.get("status") == "verified" else None


def rewrite(kernel, *args, grid, outputs: Sequence[str],
            model: Optional[str] = None, endpoint: Optional[str] = None,
            api_style: str = "openai", budget: int = 2,
            num_warps: int = 4, num_stages: int = 3, cache_dir=None,
            replay_only: bool = False, tool: Optional[str] = None,
            chat_tool: Optional[str] = None, tree: Optional[str] = None,
            rtol: Optional[float] = None, log: Optional[list] = None,
            chat_timeout: Optional[float] = 1800.0,
            **meta) -> Optional[SourceRewrite]:
    """Asks the model `budget` times for a faster source of
    `kernel(*args, **meta)` launched on `grid` with `num_warps` and
    `num_stages`; returns the fastest verified answer that beats the
    caller's kernel by 2% or more, or None. `outputs` names the arguments
    the kernel writes; `rtol` is as for `optimize` (relative, plus an
    absolute tolerance of `rtol` times the largest magnitude of each of
    the caller's outputs), and so is the poisoning of the outputs the
    caller's kernel writes completely: an answer that leaves them
    unwritten is rejected.

    An answer is verified on this call only: these arguments' shapes,
    dtypes and strides, these meta-parameters and this grid. Its source
    may assume what holds here (a size that divides the block, contiguous
    rows): before launching it on other shapes, verify it there too.

    Answers and the imported answers' files are kept under `cache_dir`
    (by default ~/.cache/autoprof/triton); `replay_only` answers from
    that cache alone. `model`, `endpoint` and `api_style` choose the model
    as autoprof-chat does (by default from $OPENAI_MODEL and
    $OPENAI_BASE_URL); one request may take `chat_timeout` seconds, its
    retries included. A round whose request fails counts as failed and
    the rounds go on. `log`, when given, receives one dict per round: its
    status (verified, rejected, failed), reason, time, code and tokens."""
    call = _Call(kernel, args, grid, outputs, Space(), num_warps,
                 num_stages, rtol, meta)
    import torch

    cache = pathlib.Path(cache_dir or default_cache_dir())
    name = getattr(getattr(kernel, "fn", kernel), "__name__", None)
    if not name:
        raise TritonError("the kernel has no name")
    params = list(kernel.arg_names)
    source = kernel_source(kernel)
    reference, copied, compiled, untouched = call.reference()
    if not untouched:
        raise TritonError("the caller's kernel writes a tensor that outputs "
                          f"({', '.join(outputs)}) does not name")
    baseline_us = call.time(call.base, copied)
    facts = call.facts(compiled, tool, tree)
    arguments = describe_arguments(call.names, args, outputs)
    device = torch.cuda.get_device_name()

    def prompt_for(history, fastest):
        return build_prompt(source, name, params, arguments, call.fixed,
                            call.grid_of(call.base), num_warps, num_stages,
                            device, baseline_us, facts, history, fastest)

    def chat(messages):
        return ask(messages, model, endpoint, api_style, cache / "answers",
                   replay_only, chat_tool, chat_timeout)

    def attempt(code):
        try:
            candidate, path = load_kernel(code, name, cache / "rewrites")
        except TritonError as error:
            return {"status": "failed", "reason": str(error)}, None
        outcome = call.evaluate(call.base, reference, candidate)
        if outcome["status"] != "verified":
            return outcome, None
        return outcome, SourceRewrite(code, candidate, outcome["us"],
                                      baseline_us, path)

    return search(budget, prompt_for,
                  lambda code: check_source(code, name, params), chat,
                  attempt, baseline_us * 0.98, log)
