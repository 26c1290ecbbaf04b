"""The LLM rewriting of Triton source without a GPU: the shape and the
safety checks of an answer, the import of an accepted one, the prompt, the
conversation (one repair round) with a scripted model through
autoprof-chat, and rounds whose request fails. (rewrite itself, which runs
the kernels, is tested on a GPU host: test/Runtime/triton-rewrite.test.)"""

import json
import sys

import pytest

from autoprof.tools import ToolError
from autoprof.triton import TritonError
from autoprof.triton_rewrite import (SourceRewrite, ask, build_prompt,
                                     check_source, describe_arguments,
                                     extract_python, load_kernel, propose,
                                     search)

PARAMS = ["x_ptr", "y_ptr", "n", "BLOCK"]

GOOD = '''"""exp with the hardware's instruction."""
import triton
import triton.language as tl

SCALE = 1.0


@triton.jit
def exp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.exp(x * SCALE), mask=mask)
'''


def test_the_answer_is_one_python_block():
    code, why = extract_python("Faster:\n```python\npass\n```\nDone.")
    assert (code, why) == ("pass\n", None)
    assert extract_python("```\npass\n```")[0] == "pass\n"
    assert (extract_python("no code")[1]
            == "the answer has no fenced code block")
    assert extract_python("```python\na\n```\n```python\nb\n```")[1] == \
        "the answer has 2 fenced code blocks; one is needed"
    assert "tagged 'cuda'" in extract_python("```cuda\nx\n```")[1]


def test_an_accepted_module_defines_the_kernel_and_nothing_else():
    assert check_source(GOOD, "exp_kernel", PARAMS) is None
    # from triton import jit, language as tl
    alias = GOOD.replace("import triton\nimport triton.language as tl",
                         "from triton import jit\nfrom triton import "
                         "language as tl").replace("@triton.jit", "@jit")
    assert check_source(alias, "exp_kernel", PARAMS) is None


@pytest.mark.parametrize("change,reason", [
    (("import triton\n", "import os\nimport triton\n"),
     "imports 'os'; only triton, triton.language and math"),
    (("import triton\n", "from subprocess import run\nimport triton\n"),
     "imports from 'subprocess'"),
    (("SCALE = 1.0", "SCALE = open('/etc/passwd').read()"),
     "assigns something other than a constant"),
    (("SCALE = 1.0", "print('hi')"), "is a Expr statement"),
    (("SCALE = 1.0", "class A:\n    pass"), "is a ClassDef statement"),
    (("@triton.jit\n", "@triton.jit(do_not_specialize=[0])\n"),
     "is not a function decorated with @triton.jit alone"),
    (("@triton.jit\n", ""),
     "is not a function decorated with @triton.jit alone"),
    (("n, BLOCK: tl.constexpr)", "n=len('x'), BLOCK: tl.constexpr=4)"),
     "a default value of 'exp_kernel' is not a constant"),
    (("BLOCK: tl.constexpr)", "BLOCK: print('x'))"),
     "the annotation of 'BLOCK' is not a name"),
    (("def exp_kernel(", "def other("),
     "the code does not define the kernel 'exp_kernel'"),
    (("x_ptr, y_ptr, n,", "y_ptr, x_ptr, n,"),
     "'exp_kernel' takes (y_ptr, x_ptr, n, BLOCK); the kernel's parameters "
     "are (x_ptr, y_ptr, n, BLOCK)"),
    (("mask = offs < n", "mask = offs <"), "the code does not parse"),
    # Triton's compiler calls the Python functions a body names.
    (("x = tl.load(x_ptr + offs, mask=mask)",
      "x = tl.load(x_ptr + offs, mask=mask)\n    tl.core.builtins.open('f')"),
     "line 13 names tl.core.builtins (the module builtins)"),
    (("x = tl.load(x_ptr + offs, mask=mask)",
      "x = tl.load(x_ptr + offs, mask=mask)\n    triton.runtime.driver"),
     "line 13 names triton.runtime"),
    (("x = tl.load(x_ptr + offs, mask=mask)",
      "x = tl.load(x_ptr + offs, mask=mask)\n    m = tl"),
     "line 13 uses the module 'tl' other than by naming one of its"),
    (("x = tl.load(x_ptr + offs, mask=mask)",
      "x = getattr(tl, 'load')(x_ptr + offs, mask=mask)"),
     "line 12 names 'getattr'"),
    (("x = tl.load(x_ptr + offs, mask=mask)",
      "x = tl.load(x_ptr + offs, mask=mask).__class__"),
     "line 12 names the attribute '__class__'"),
])
def test_a_module_that_could_run_code_or_misses_the_kernel_is_refused(
        change, reason):
    code = GOOD.replace(*change)
    assert code != GOOD
    why = check_source(code, "exp_kernel", PARAMS)
    assert why is not None and reason in why, why


def test_a_body_may_name_what_triton_language_and_math_define():
    pytest.importorskip("triton")
    body = GOOD.replace("tl.exp(x * SCALE)",
                        "tl.extra.cuda.libdevice.exp(x) + tl.math.exp(x) "
                        "* math.pi").replace("import triton\n",
                                             "import math\nimport triton\n")
    assert check_source(body, "exp_kernel", PARAMS) is None
    assert "does not exist" in check_source(
        GOOD.replace("tl.exp(", "tl.no_such_function("), "exp_kernel",
        PARAMS)


# The lines of GOOD's kernel after which a test adds a statement.
AFTER_LOAD = "x = tl.load(x_ptr + offs, mask=mask)"


def body_with(*lines):
    """GOOD with `lines` added to the kernel's body (after the load, so
    that they are its line 13 on)."""
    return GOOD.replace(AFTER_LOAD, "\n    ".join((AFTER_LOAD,) + lines))


def refusal(code):
    return check_source(code, "exp_kernel", PARAMS)


HELPER = '''
@triton.jit
def helper(a):
    return a

'''


def with_helper(definition):
    """GOOD with a function `definition` before the kernel."""
    return GOOD.replace("\n@triton.jit\ndef exp_kernel",
                        definition + "\n@triton.jit\ndef exp_kernel")


@pytest.mark.parametrize("code,reason", [
    # Importing the module evaluates a module-level annotation.
    (GOOD.replace("SCALE = 1.0", "SCALE: exec('x = 1') = 1.0"),
     "line 5: the annotation of 'SCALE' is not a name such as tl.constexpr"),
    (GOOD.replace("SCALE = 1.0", "SCALE: tl.core.builtins = 1.0"),
     "the annotation of 'SCALE' is refused: line 5 names tl.core.builtins "
     "(the module builtins)"),
    (GOOD.replace("SCALE = 1.0", "SCALE: exec = 1.0"),
     "the annotation of 'SCALE' is refused: line 5 names 'exec'"),
    # Defining a function evaluates its parameters' and return annotations.
    (with_helper("@triton.jit\ndef helper(a: print('x')):\n    pass\n"),
     "the annotation of 'a' is not a name"),
    (with_helper("@triton.jit\ndef helper(*, a: open('f')):\n    pass\n"),
     "the annotation of 'a' is not a name"),
    (with_helper("@triton.jit\ndef helper(a) -> exec('x = 1'):\n    pass\n"),
     "the return annotation of 'helper' is not a name"),
    (with_helper("@triton.jit\ndef helper(a: tl.core.inspect):\n    pass\n"),
     "the annotation of 'a' is refused: line 8 names tl.core.inspect "
     "(the module inspect)"),
    # A body's annotation is evaluated by Triton's compiler.
    (body_with("y: exec('x = 1') = x"),
     "line 13 annotates a name with something other than a name"),
    (body_with("y: exec = x"), "line 13 names 'exec'"),
])
def test_every_annotation_is_a_name_a_body_could_name(code, reason):
    why = refusal(code)
    assert why is not None and reason in why, why


@pytest.mark.parametrize("signature,reason", [
    ("*a: exec('x = 1')", "'helper' takes *a; a Triton function's "
                          "parameters each have a name"),
    ("a: exec('x = 1'), /", "'helper' has positional-only parameters"),
    ("**k: exec('x = 1')", "'helper' takes **k;"),
])
def test_positional_only_star_and_double_star_parameters_are_refused(
        signature, reason):
    # Their annotations, too, run when the function is defined.
    code = with_helper(f"@triton.jit\ndef helper({signature}):\n    pass\n")
    why = refusal(code)
    assert why is not None and reason in why, why


@pytest.mark.parametrize("imports,reason", [
    ("from triton import testing",
     "line 4 imports 'triton.testing'; from triton only jit and language"),
    ("from triton import *", "line 4 imports * from 'triton'"),
    ("from triton.language import *", "line 4 imports * from "
                                      "'triton.language'"),
    ("from math import *", "line 4 imports * from 'math'"),
    ("from triton.language import core",
     "line 4 imports triton.language.core (the module "
     "triton.language.core)"),
    ("from triton.language import no_such_name",
     "imports triton.language.no_such_name (which does not exist)"),
    ("from triton.language.core import builtins",
     "imports from 'triton.language.core'"),
    ("from . import triton", "imports from '.'"),
    ("import triton.language.core", "imports 'triton.language.core'"),
    ("import os", "imports 'os'"),
])
def test_from_imports_bind_only_what_triton_language_and_math_define(
        imports, reason):
    pytest.importorskip("triton")
    code = GOOD.replace("import triton.language as tl\n",
                        f"import triton.language as tl\n{imports}\n")
    why = refusal(code)
    assert why is not None and reason in why, why


def test_a_name_imported_from_triton_runs_nothing_at_compile_time():
    # `testing` was accepted, and unchecked in a body: Triton's compiler
    # would call testing.subprocess.Popen while compiling the kernel.
    code = GOOD.replace("import triton.language as tl\n",
                        "import triton.language as tl\n"
                        "from triton import testing\n").replace(
        AFTER_LOAD, AFTER_LOAD + "\n    testing.subprocess.Popen('true')")
    assert "imports 'triton.testing'" in refusal(code)


def test_names_imported_from_triton_language_and_math_may_be_used():
    pytest.importorskip("triton")
    code = '''import math
from math import pi
from triton import jit
from triton import language as tl
from triton.language import constexpr, float32, program_id


@jit
def exp_kernel(x_ptr, y_ptr, n, BLOCK: constexpr):
    offs = program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(float32)
    tl.store(y_ptr + offs, tl.exp(x) * pi * math.e, mask=offs < n)
'''
    assert refusal(code) is None
    # jit only decorates.
    assert "names 'jit' (triton.jit), which only decorates" in refusal(
        code.replace("tl.exp(x)", "jit(x)"))


def test_without_triton_only_a_fixed_list_may_be_imported_from_it(
        monkeypatch):
    from autoprof import triton_rewrite
    monkeypatch.setattr(triton_rewrite, "_import_language", lambda: None)
    code = GOOD.replace("import triton.language as tl\n",
                        "import triton.language as tl\n"
                        "from triton.language import {}\n")
    assert refusal(code.format("constexpr, program_id, load")) is None
    assert "imports triton.language.core (which cannot be checked without " \
        "Triton)" in refusal(code.format("core"))
    assert "names tl.core (which cannot be checked without Triton)" in \
        refusal(body_with("y = tl.core.partial"))
    assert refusal(body_with("y = tl.math.exp(x)")) is None


@pytest.mark.parametrize("lines,reason", [
    # A module passed as a value carries the rest of its chain past the
    # check of chains: Triton's compiler would resolve m.builtins.exec.
    (("helper(tl.constexpr(tl.core))",),
     "uses the module tl.core other than by naming one of its "
     "functions, types or constants"),
    (("c = tl.core",), "uses the module tl.core"),
    (("print(tl.math)",), "uses the module tl.math"),
    (("y = triton.language",), "uses the module triton.language"),
    # A chain ends on what triton.language or math define themselves.
    (("f = tl.core.partial(tl.exp, x)",),
     "names tl.core.partial (defined in functools)"),
    (("y = triton.jit",), "names triton.jit"),
    # And takes only the attributes of Triton's values after that.
    (("y = tl.float32.to_ir",), "names tl.float32.to_ir ('to_ir' "
                                "is not an attribute of Triton's"),
    (("y = tl.sum.fn(x)",), "names tl.sum.fn ('fn' is not"),
])
def test_a_chain_through_modules_ends_on_what_they_define(lines, reason):
    pytest.importorskip("triton")
    why = refusal(with_helper(HELPER).replace(AFTER_LOAD, "\n    ".join(
        (AFTER_LOAD,) + lines)))
    assert why is not None and reason in why, why


def test_a_chain_may_end_on_functions_types_dtypes_and_constants():
    pytest.importorskip("triton")
    code = body_with("y = tl.float32.primitive_bitwidth + math.pi",
                     "z = tl.constexpr(1) + triton.cdiv(n, BLOCK)",
                     "w = tl.where(mask, x, 0.0).to(tl.float16)").replace(
        "import triton\n", "import math\nimport triton\n")
    assert refusal(code) is None


@pytest.mark.parametrize("line,attribute", [
    ("y = 'open'.format(x)", "format"),
    ("y = (1).bit_length()", "bit_length"),
    ("y = f'{n}'.join(x)", "join"),
    ("y = (x, x).count(x)", "count"),
])
def test_an_attribute_of_a_literal_is_refused(line, attribute):
    why = refusal(body_with(line))
    assert why == f"line 13 takes the attribute '{attribute}' of a literal", \
        why


@pytest.mark.parametrize("line,attribute", [
    # A @triton.jit function's fn is the plain Python function, which
    # Triton's compiler would call as such; its get_capture_scope holds
    # the globals of its module.
    ("helper.fn(x)", "fn"),
    ("helper.get_capture_scope()", "get_capture_scope"),
    ("y = SCALE.hex()", "hex"),
    ("y = x.handle", "handle"),
])
def test_a_value_gives_only_the_attributes_of_triton_values(line,
                                                           attribute):
    why = refusal(with_helper(HELPER).replace(AFTER_LOAD, AFTER_LOAD +
                                              "\n    " + line))
    assert why is not None and f"takes the attribute '{attribute}'" in why, \
        why


def test_value_attributes_reach_nothing_of_a_jit_function():
    pytest.importorskip("triton")
    import triton.language as tl
    from autoprof.triton_rewrite import _VALUE_ATTRIBUTES
    of_function = {a for a in dir(tl.sum) if not a.startswith("_")}
    # `type` is a tensor's type and a jit function's constexpr wrapper.
    assert _VALUE_ATTRIBUTES & of_function == {"type"}
    # Every method of Triton's tensors is there.
    assert {a for a in dir(tl.tensor) if not a.startswith("_")} <= \
        _VALUE_ATTRIBUTES


@pytest.mark.parametrize("name", [
    "exec", "eval", "open", "compile", "globals", "vars", "type", "setattr",
    "breakpoint", "input", "object", "dir"])
def test_a_body_names_only_its_own_names_the_module_and_a_few_builtins(
        name):
    why = refusal(body_with(f"y = {name}(x)"))
    assert why is not None and why.startswith(
        f"line 13 names '{name}', which is not a parameter, a local, a name "
        "of the module or a builtin a kernel may use"), why


def test_the_builtins_triton_resolves_may_be_named():
    code = body_with("for i in range(len([x])):",
                     "    y = min(int(1), max(float(2), 3))",
                     "    print('y', isinstance(y, list))")
    assert refusal(code) is None


@pytest.mark.parametrize("lines,kind", [
    (("def inner():", "    pass"), "FunctionDef"),
    (("class Inner:", "    pass"), "ClassDef"),
    (("f = lambda: 1",), "Lambda"),
    (("import math",), "Import"),
    (("from math import pi",), "ImportFrom"),
    (("global SCALE",), "Global"),
    (("with tl.static_range(1):", "    pass"), "With"),
    (("try:", "    pass", "except ValueError:", "    pass"), "Try"),
])
def test_a_body_defines_imports_and_handles_nothing(lines, kind):
    why = refusal(body_with(*lines))
    assert why is not None and why.startswith(f"line 13 holds a {kind}"), \
        why


def test_a_nonlocal_is_refused():
    # A nonlocal needs an enclosing function, which is refused first.
    why = refusal(body_with("def inner():", "    nonlocal x"))
    assert "holds a FunctionDef" in why


@pytest.mark.parametrize("code,reason", [
    (GOOD.replace("SCALE = 1.0", "tl = 1.0"),
     "line 5 binds 'tl' again, to something else"),
    (body_with("tl = x"), "line 13 rebinds 'tl', which the module imports"),
    (body_with("for math in range(2):", "    pass").replace(
        "import triton\n", "import math\nimport triton\n"),
     "rebinds 'math'"),
    (with_helper("@triton.jit\ndef helper(tl):\n    return tl.core\n"),
     "the parameter 'tl' of 'helper' hides an import"),
])
def test_an_imported_name_keeps_what_it_stands_for(code, reason):
    why = refusal(code)
    assert why is not None and reason in why, why


@pytest.mark.parametrize("default,accepted", [
    ("tl.constexpr(4)", True),
    ("triton.language.constexpr(4)", True),
    ("-1", True),
    ("is_constexpr(4)", False),
    ("tl.core.is_constexpr(4)", False),
    ("my_constexpr(4)", False),
])
def test_a_default_calls_nothing_but_triton_language_constexpr(default,
                                                               accepted):
    code = GOOD.replace("BLOCK: tl.constexpr)",
                        f"BLOCK: tl.constexpr = {default})")
    why = refusal(code)
    assert (why is None) == accepted, why
    if not accepted:
        assert "a default value of 'exp_kernel' is not a constant" in why


def test_an_imported_constexpr_makes_constants():
    code = GOOD.replace("import triton.language as tl\n",
                        "import triton.language as tl\n"
                        "from triton.language import constexpr\n").replace(
        "SCALE = 1.0", "SCALE: constexpr = constexpr(1.0)")
    assert refusal(code) is None
    assert "assigns something other than a constant" in refusal(
        GOOD.replace("SCALE = 1.0", "SCALE = is_constexpr(1.0)"))


def test_an_accepted_module_is_imported_from_a_file(tmp_path):
    pytest.importorskip("triton")
    kernel, path = load_kernel(GOOD, "exp_kernel", tmp_path)
    assert list(kernel.arg_names) == PARAMS
    assert path.parent == tmp_path and path.read_text() == GOOD
    # The same code, the same file.
    assert load_kernel(GOOD, "exp_kernel", tmp_path)[1] == path
    with pytest.raises(TritonError, match="importing the answer failed"):
        load_kernel(GOOD.replace("SCALE = 1.0", "SCALE = missing"),
                    "exp_kernel", tmp_path)


class Tensor:
    """What describe_arguments reads of a tensor."""

    def __init__(self, dtype, shape, strides):
        self.dtype, self.shape, self._strides = dtype, shape, strides

    def stride(self):
        return self._strides


def test_the_prompt_carries_the_source_the_call_the_facts_and_history():
    arguments = describe_arguments(
        ["x_ptr", "y_ptr", "n"],
        [Tensor("torch.float32", (4096,), (1,)),
         Tensor("torch.float32", (4096,), (1,)), 4096], ["y_ptr"])
    assert arguments == [
        "- x_ptr: tensor of float32, shape (4096,), strides (1,)",
        "- y_ptr: tensor of float32, shape (4096,), strides (1,) (written: "
        "an output)",
        "- n: int = 4096"]
    prompt = build_prompt(
        GOOD, "exp_kernel", PARAMS, arguments, {"BLOCK": 1024}, (4,), 4, 3,
        "NVIDIA H200", 12.5,
        {"dram-bound": "true", "issue-bound": "false",
         "l2-bound": "unknown"},
        [{"status": "rejected", "reason": "outputs differ from the original "
          "call's"}, {"status": "verified", "us": 9.0}],
        ("def faster(): pass", 9.0))
    assert GOOD.rstrip() in prompt
    assert "on an NVIDIA H200" in prompt
    assert "- meta-parameters: BLOCK=1024" in prompt
    assert "- grid: (4,); num_warps=4, num_stages=3" in prompt
    assert "- time: 12.50 us per launch" in prompt
    assert "- holds: dram-bound" in prompt
    assert "- does not hold: issue-bound" in prompt
    assert "- unknown (not collected): l2-bound" in prompt
    assert "The fastest version so far (9.00 us):" in prompt
    assert "1. rejected: outputs differ from the original call's" in prompt
    assert "2. verified, 9.00 us" in prompt
    assert "`@triton.jit def exp_kernel(x_ptr, y_ptr, n, BLOCK)`" in prompt


def test_an_unusable_answer_gets_one_repair_round(tmp_path, chat_tool,
                                                  llm_server):
    endpoint, requests = llm_server([
        "Here:\n```python\nimport os\n```",
        "Sorry.\n```python\n" + GOOD + "```"])

    def chat(messages):
        return ask(messages, "m", endpoint, "openai", tmp_path / "answers",
                   False, chat_tool)

    answer = propose("Make it faster.",
                     lambda code: check_source(code, "exp_kernel", PARAMS),
                     chat)
    assert answer.code == GOOD and answer.reason is None and answer.repaired
    assert answer.tokens == (10, 5)
    sent = [json.loads(json.loads(line)["body"])
            for line in requests.read_text().splitlines()]
    assert len(sent) == 2
    repair = sent[1]["messages"][-1]["content"]
    assert repair.startswith("The answer cannot be used: line 1 imports "
                             "'os'")
    assert sent[1]["messages"][0]["role"] == "system"
    assert [m["role"] for m in sent[1]["messages"][1:]] == [
        "user", "assistant", "user"]

    # Both answers are cached: a replay asks nobody.
    def replay(messages):
        return ask(messages, "m", endpoint, "openai", tmp_path / "answers",
                   True, chat_tool)
    again = propose("Make it faster.",
                    lambda code: check_source(code, "exp_kernel", PARAMS),
                    replay)
    assert again.code == GOOD and again.from_cache


def test_two_unusable_answers_are_a_rejection(tmp_path, chat_tool,
                                              llm_server):
    endpoint, _ = llm_server(["no code", "still none"])
    answer = propose(
        "Make it faster.",
        lambda code: check_source(code, "exp_kernel", PARAMS),
        lambda messages: ask(messages, "m", endpoint, "openai", None, False,
                             chat_tool))
    assert answer.code is None and answer.repaired
    assert answer.reason == "the answer has no fenced code block"


def test_null_token_counts_count_as_none():
    answer = propose("Make it faster.",
                     lambda code: check_source(code, "exp_kernel", PARAMS),
                     lambda messages: {"text": "```python\n" + GOOD + "```",
                                       "prompt_tokens": None,
                                       "completion_tokens": None})
    assert answer.code == GOOD and answer.tokens == (0, 0)


def test_a_cut_off_answer_is_told_so():
    sent = []
    replies = iter([
        {"text": "```python\nimport triton\n", "truncated": True},
        {"text": "```python\n" + GOOD + "```", "truncated": False}])

    def chat(messages):
        sent.append([dict(m) for m in messages])
        return next(replies)

    answer = propose("Make it faster.",
                     lambda code: check_source(code, "exp_kernel", PARAMS),
                     chat)
    assert answer.code == GOOD and answer.repaired
    assert sent[1][-1]["content"].startswith(
        "The answer cannot be used: the answer was cut off at the model's "
        "output limit before its code block was complete")


def fake_chat_tool(tmp_path, body):
    """An executable standing in for autoprof-chat, running the Python
    `body`."""
    path = tmp_path / "fake-chat"
    path.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("body,error,message", [
    ("sys.stderr.write('no route to the model'); sys.exit(1)", ToolError,
     "autoprof-chat failed (status 1):\nno route to the model"),
    ("print('not json')", ValueError, "autoprof-chat printed no JSON"),
    ("print('[1, 2]')", ValueError, "printed something other than an "
                                    "answer"),
    ("print('{\"text\": 3}')", ValueError, "printed something other than "
                                          "an answer"),
    ("time.sleep(30)", ToolError, "autoprof-chat did not finish within "
                                  "0.5 s"),
])
def test_a_failing_chat_tool_raises(tmp_path, body, error, message):
    tool = fake_chat_tool(tmp_path, body)
    with pytest.raises(error) as raised:
        ask([{"role": "user", "content": "hi"}], "m", None, "openai", None,
            False, tool, timeout=0.5)
    assert message in str(raised.value)


def test_a_failing_request_fails_its_round_and_keeps_the_best(tmp_path):
    failing = fake_chat_tool(tmp_path, "print('not json')")
    rounds = iter([
        lambda messages: {"text": "```python\n" + GOOD + "```",
                          "prompt_tokens": 3, "completion_tokens": 4},
        lambda messages: ask(messages, "m", None, "openai", None, False,
                             failing),
        lambda messages: ask(messages, "m", None, "openai", None, False,
                             str(tmp_path / "missing")),
    ])
    histories = []

    def prompt_for(history, fastest):
        histories.append(([dict(e) for e in history], fastest))
        return "Make it faster."

    def attempt(code):
        return ({"status": "verified", "us": 5.0},
                SourceRewrite(code, None, 5.0, 10.0, tmp_path / "k.py"))

    log = []
    best = search(3, prompt_for,
                  lambda code: check_source(code, "exp_kernel", PARAMS),
                  lambda messages: next(rounds)(messages), attempt, 9.8, log)
    assert best is not None and best.source == GOOD and best.us == 5.0
    assert [entry["status"] for entry in log] == ["verified", "failed",
                                                  "failed"]
    assert log[1]["reason"].startswith(
        "the model could not be asked: autoprof-chat printed no JSON")
    assert log[2]["reason"].startswith("the model could not be asked: ")
    # The later requests show the fastest version and the failed round.
    assert histories[2][1] == (GOOD, 5.0)
    assert [e["status"] for e in histories[2][0]] == ["verified", "failed"]


def test_rewrite_says_it_verifies_one_shape():
    from autoprof.triton_rewrite import rewrite
    doc = " ".join(rewrite.__doc__.split())
    assert "An answer is verified on this call only" in doc
    assert "before launching it on other shapes, verify it there too" in doc
