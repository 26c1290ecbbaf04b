import os
import pathlib

import pytest

from autoprof.tools import ToolError, optimize

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def opt_tool():
    tools = os.environ.get("AUTOPROF_TOOLS_DIR")
    tool = pathlib.Path(tools) / "autoprof-opt" if tools else None
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("autoprof-opt is not built (set AUTOPROF_TOOLS_DIR)")
    return str(tool)


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
