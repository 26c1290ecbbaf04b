import os
import pathlib
import shutil

import pytest

DATA = pathlib.Path(__file__).parent / "data"


@pytest.fixture
def report_path():
    """Two kernels of a run on an H200 (vecmat and copy of the upstream
    corpus, one-thread blocks) and one failed kernel."""
    return DATA / "h200-report.json"


@pytest.fixture
def learn_tool():
    """autoprof-learn from the build tree (AUTOPROF_TOOLS_DIR) or PATH."""
    tools = os.environ.get("AUTOPROF_TOOLS_DIR")
    tool = (str(pathlib.Path(tools) / "autoprof-learn") if tools
            else shutil.which("autoprof-learn"))
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip("autoprof-learn is not built")
    return tool


@pytest.fixture
def seconds_report_path():
    """The report of conv2d (16x16 tiles of the upstream corpus) from a run on
    an H200 host at commit 28bdc62, whose evaluations record where their time
    went."""
    return DATA / "h200-report-seconds.json"
