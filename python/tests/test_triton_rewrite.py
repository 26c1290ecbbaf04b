"""The LLM rewriting of Triton source without a GPU: the shape and the
safety checks of an answer, the import of an accepted one, the prompt, and
the conversation (one repair round) with a scripted model through
autoprof-chat. (rewrite itself, which runs the kernels, is tested on a GPU
host: test/Runtime/triton-rewrite.test.)"""

import json

import pytest

from autoprof.triton import TritonError
from autoprof.triton_rewrite import (ask, build_prompt, check_source,
                                     describe_arguments, extract_python,
                                     load_kernel, propose)

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
    assert extract_python("no code")[1] == "the answer has no fenced code block"
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
