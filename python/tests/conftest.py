import os
import pathlib

import pytest

DATA = pathlib.Path(__file__).parent / "data"


@pytest.fixture
def h100_f16_path():
    """The report of the upstream corpus's f16 matmul (16x16 tiles) from a
    run on an H100 SXM: its winner issues tensor-core products, so the FP32
    peak is far below it. Candidates' metrics left out."""
    return DATA / "h100" / "matmul_f16.tile16x16.json"


@pytest.fixture
def mixed_outcomes_path():
    """A bf16 matmul on an H100 whose candidates end every way a search can
    end them: rejected by verification, skipped, an error, slower, within
    the noise, not confirmed by the re-timing, a failed re-timing, accepted,
    and within the noise of the new incumbent. Its leaf is #4 of the shipped
    tree @h200_start."""
    return DATA / "h100-mixed-outcomes.json"


@pytest.fixture
def report_path():
    """Two kernels of a run on an H200 (vecmat and copy of the upstream
    corpus, one-thread blocks) and one failed kernel."""
    return DATA / "h200-report.json"


def built_tool(name):
    """The AutoProf tool `name` from AUTOPROF_TOOLS_DIR, else where the
    package finds it (autoprof.tools.find_tool: $AUTOPROF_BIN, the
    checkout's build tree, PATH); skips the test when it is not built."""
    from autoprof.tools import ToolError, find_tool
    tools = os.environ.get("AUTOPROF_TOOLS_DIR")
    try:
        tool = (str(pathlib.Path(tools) / name) if tools
                else find_tool(name))
    except ToolError:
        tool = None
    if not tool or not os.access(tool, os.X_OK):
        pytest.skip(f"{name} is not built")
    return tool


@pytest.fixture
def opt_tool():
    """autoprof-opt from the build tree or where the package finds it."""
    return built_tool("autoprof-opt")


@pytest.fixture
def learn_tool():
    """autoprof-learn from the build tree or PATH."""
    return built_tool("autoprof-learn")


@pytest.fixture
def seconds_report_path():
    """The report of conv2d (16x16 tiles of the upstream corpus) from a run on
    an H200 host at commit 28bdc62, whose evaluations record where their time
    went."""
    return DATA / "h200-report-seconds.json"


@pytest.fixture
def chat_tool():
    """autoprof-chat from the build tree or PATH."""
    return built_tool("autoprof-chat")


@pytest.fixture
def llm_server(tmp_path):
    """Starts the scripted loopback LLM server of the unit tests
    (test/Unit/scripted_llm_server.py) on a script of answers; yields a
    function that takes the answers' texts and returns (endpoint, the path
    of the requests it records)."""
    import json
    import subprocess
    import sys
    import time
    server = (pathlib.Path(__file__).resolve().parents[2] / "test" / "Unit" /
              "scripted_llm_server.py")
    processes = []

    def start(texts):
        script = tmp_path / "script.json"
        script.write_text(json.dumps([
            {"status": 200, "body": {"choices": [{"message": {
                "role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5}}}
            for text in texts]))
        port_file = tmp_path / "port"
        requests = tmp_path / "requests.jsonl"
        processes.append(subprocess.Popen([
            sys.executable, str(server), "--script", str(script),
            "--port-file", str(port_file), "--requests", str(requests),
            "--lifetime", "60"]))
        for _ in range(200):
            if port_file.exists():
                break
            time.sleep(0.05)
        port = port_file.read_text().strip()
        return f"http://127.0.0.1:{port}/v1", requests

    yield start
    for process in processes:
        process.kill()
        process.wait()
