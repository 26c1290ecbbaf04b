import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from autoprof.tools import ToolError, optimize

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_optimize_runs_the_pass_and_loads_its_report(tmp_path, opt_tool):
    # The stand-in worker of the lit tests: every candidate verified and
    # twice as fast as the baseline.
    worker = REPO / "test/Optimizer/Inputs/fake-worker.py"
    module = REPO / "test/Corpus/Upstream/add.tile16x16.mlir"
    result = optimize(module, tmp_path / "out.mlir",
                      report=tmp_path / "report.json", tool=opt_tool,
                      budget=2, worker=worker)
    assert result.output.read_text().startswith("module")
    kernel = result.report.kernel("add_kernel")
    assert kernel.accepted == ["coalesce=32"]
    assert kernel.speedup == pytest.approx(2.0)
    assert "autoprof-optimize: @add_kernel" in result.log


def test_failures_carry_the_diagnostics(tmp_path, opt_tool):
    module = tmp_path / "bad.mlir"
    module.write_text("module { func.func @f( }")
    with pytest.raises(ToolError, match="(?s)autoprof-opt failed .*bad.mlir"):
        optimize(module, tmp_path / "out.mlir", tool=opt_tool)
    with pytest.raises(ToolError, match="cannot run /nonexistent"):
        optimize(module, tmp_path / "out.mlir", tool="/nonexistent/opt")
    with pytest.raises(ToolError, match="holds whitespace"):
        optimize(module, tmp_path / "out.mlir", tool=opt_tool,
                 worker="a b")


def fake_tool(directory, name="autoprof-opt"):
    directory.mkdir(parents=True, exist_ok=True)
    tool = directory / name
    tool.write_text("#!/bin/sh\necho fake\n")
    tool.chmod(0o755)
    return str(tool)


def test_tools_are_found_in_autoprof_bin_the_checkout_then_path(
        tmp_path, monkeypatch):
    from autoprof import tools
    monkeypatch.setattr(tools, "_CHECKOUT_BIN", tmp_path / "checkout")
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    monkeypatch.delenv("AUTOPROF_BIN", raising=False)
    on_path = fake_tool(tmp_path / "path")
    assert tools.find_tool("autoprof-opt") == on_path
    in_checkout = fake_tool(tmp_path / "checkout")
    assert tools.find_tool("autoprof-opt") == in_checkout
    monkeypatch.setenv("AUTOPROF_BIN", str(tmp_path / "bin"))
    # A directory that lacks the tool is passed over.
    assert tools.find_tool("autoprof-opt") == in_checkout
    in_bin = fake_tool(tmp_path / "bin")
    assert tools.find_tool("autoprof-opt") == in_bin
    assert tools.find_tool("autoprof-opt", "/given/tool") == "/given/tool"


def test_a_missing_tool_names_every_place_looked(tmp_path, monkeypatch):
    from autoprof import tools
    monkeypatch.setattr(tools, "_CHECKOUT_BIN", tmp_path / "checkout")
    monkeypatch.setenv("PATH", str(tmp_path / "path"))
    monkeypatch.setenv("AUTOPROF_BIN", str(tmp_path / "bin"))
    with pytest.raises(ToolError) as error:
        tools.find_tool("autoprof-opt")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("autoprof-opt not found in $AUTOPROF_BIN (")
    for place in (str(tmp_path / "bin"), str(tmp_path / "checkout"),
                  "PATH", "set AUTOPROF_BIN"):
        assert place in message
    monkeypatch.delenv("AUTOPROF_BIN")
    with pytest.raises(ToolError, match=r"\$AUTOPROF_BIN \(not set\)"):
        tools.find_tool("autoprof-opt")


def test_the_command_says_in_one_line_that_no_tool_was_found(tmp_path):
    env = {"PATH": str(tmp_path), "AUTOPROF_BIN": str(tmp_path / "bin"),
           "PYTHONPATH": os.pathsep.join(sys.path)}
    # The checkout's build tree is not to be seen either: the package is
    # run from a copy.
    copy = tmp_path / "python" / "autoprof"
    shutil.copytree(REPO / "python" / "autoprof", copy)
    module = tmp_path / "in.mlir"
    module.write_text("module {}\n")
    proc = subprocess.run(
        [sys.executable, "-m", "autoprof.cli", "optimize", str(module), "-o",
         str(tmp_path / "out.mlir")], capture_output=True, text=True,
        env={**env, "PYTHONPATH": str(tmp_path / "python")}, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("autoprof: autoprof-opt not found in "
                                  "$AUTOPROF_BIN (")
    assert str(tmp_path / "build" / "bin") in proc.stderr


def test_the_command_finds_the_checkouts_tools_without_path(tmp_path):
    built = REPO / "build" / "bin" / "autoprof-opt"
    if not os.access(built, os.X_OK):
        pytest.skip("autoprof-opt is not built in this checkout's build/bin")
    from autoprof import tools
    if tools._CHECKOUT_BIN != built.parent:
        pytest.skip("the package is not run from this checkout")
    worker = REPO / "test/Optimizer/Inputs/fake-worker.py"
    module = REPO / "test/Corpus/Upstream/add.tile16x16.mlir"
    env = {k: v for k, v in os.environ.items() if k != "AUTOPROF_BIN"}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + "/usr/bin" \
        + os.pathsep + "/bin"
    proc = subprocess.run(
        [sys.executable, "-m", "autoprof.cli", "optimize", str(module), "-o",
         str(tmp_path / "out.mlir"), "--report", str(tmp_path / "r.json"),
         "--budget", "1", "--option", f"worker={worker}"],
        capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "geometric mean speedup" in proc.stdout
