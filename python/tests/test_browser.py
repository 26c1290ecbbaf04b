"""The page as a browser shows it: headless Chromium renders it without a
console message, the screenshot is not blank, the DOM holds every kernel,
the tree with each kernel's path and a reason for every candidate, and
nothing is wider than the window. Needs `chromium` (scripts/setup.sh
installs it on Debian); skipped where it is not installed."""

import re
import shutil
import struct
import subprocess
import zlib

import pytest

from autoprof import load_report
from autoprof.html import render

BROWSER = next((shutil.which(name) for name in
                ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(name)), None)

pytestmark = pytest.mark.skipif(BROWSER is None,
                                reason="headless Chromium is not installed "
                                       "(none of chromium, chromium-browser, "
                                       "google-chrome on PATH)")


def chromium(*args):
    return subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
         "--enable-logging=stderr", "--v=0", *args],
        capture_output=True, text=True, timeout=120)


def console_messages(stderr: str):
    return re.findall(r":CONSOLE[:(]\d+\)?\] (.*)", stderr)


def distinct_pixels(png: bytes) -> int:
    """The number of distinct pixels of an 8-bit RGB(A) PNG, from its rows."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", data[:10])
            assert depth == 8 and color in (2, 6)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels + 1
    seen = set()
    # Unfiltered bytes are enough to tell a blank page from a drawn one:
    # every row of a blank page is the same.
    for row in range(0, height, 8):
        line = raw[row * stride:(row + 1) * stride]
        seen.add(line)
    return len(seen)


def test_detection_of_console_messages(tmp_path):
    page = tmp_path / "error.html"
    page.write_text("<html><body><script>undefinedFunction();</script>"
                    "</body></html>")
    messages = console_messages(chromium("--dump-dom", page.as_uri()).stderr)
    assert any("undefinedFunction" in m for m in messages)


def test_page_renders_every_kernel_without_console_messages(
        tmp_path, report_path):
    report = load_report(report_path)
    page = tmp_path / "run.html"
    page.write_text(render(report))
    dom = chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    for kernel in report.kernels:
        assert f'id="{kernel.kernel}"' in dom.stdout
    assert console_messages(dom.stderr) == []
    shot = tmp_path / "run.png"
    result = chromium("--window-size=1280,1600", f"--screenshot={shot}",
                      page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    assert distinct_pixels(shot.read_bytes()) > 20
    blank = tmp_path / "blank.html"
    blank.write_text("<html><body></body></html>")
    blank_shot = tmp_path / "blank.png"
    chromium("--window-size=1280,1600", f"--screenshot={blank_shot}",
             blank.as_uri())
    assert distinct_pixels(blank_shot.read_bytes()) <= 2


# Measures the page as laid out and writes what it found into the DOM, which
# --dump-dom then prints: whether anything is wider than the window, and
# whether the tree's and the tables' cells stay inside their boxes.
_MEASURE = """
<script>
window.addEventListener("load", () => {
  const doc = document.documentElement;
  const tree = document.querySelector("ul.tree");
  const wide = [...document.querySelectorAll("ul.tree li, p, h1, h2")]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
    .map(e => e.tagName + ":" + e.textContent.slice(0, 40));
  const out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify({
    window: window.innerWidth, page: doc.scrollWidth,
    tree: tree ? tree.scrollWidth <= tree.clientWidth + 1 : null,
    wide: wide,
    images: [...document.images].filter(i => !i.complete ||
                                          i.naturalWidth === 0).length,
  });
  document.body.appendChild(out);
});
</script>
"""


@pytest.mark.parametrize("width", [800, 1280])
def test_page_structure_and_fit_in_a_browser(tmp_path, mixed_outcomes_path,
                                             width):
    import json
    from autoprof.trees import parse_tree
    # The shipped tree's shape, written out so that no tool is needed.
    tree = parse_tree({"name": "h200_start", "chip": "sm_90", "root": {
        "kind": "split", "id": 1, "feature": "grid_blocks",
        "comparison": "lt", "threshold": 132, "missing": "else",
        "then": {"kind": "collect", "id": 2,
                 "groups": ["SpeedOfLight", "LaunchStats", "Occupancy"]},
        "else": {"kind": "split", "id": 3, "feature": "tensor_core_ops",
                 "comparison": "gt", "threshold": 0, "missing": "else",
                 "then": {"kind": "collect", "id": 4, "summary": "roofline",
                          "groups": ["SpeedOfLight",
                                     "ComputeWorkloadAnalysis",
                                     "WarpStateStats"]},
                 "else": {"kind": "collect", "id": 5,
                          "groups": ["SpeedOfLight",
                                     "MemoryWorkloadAnalysis"]}}}})
    page = tmp_path / "run.html"
    page.write_text(render(load_report(mixed_outcomes_path),
                           profiling_tree=tree)
                    .replace("</body>", _MEASURE + "</body>"))
    dom = chromium(f"--window-size={width},900", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert console_messages(dom.stderr) == []
    text = dom.stdout
    measured = json.loads(html_text(re.search(
        r'<pre id="measured">(.*?)</pre>', text, re.S).group(1)))
    # Nothing wider than the window: wide tables scroll inside their box.
    assert measured["page"] <= measured["window"], measured
    assert measured["tree"] is True and measured["wide"] == []
    assert measured["images"] == 0
    # The structure: the summary, the tree with the path taken, the
    # kernel's section with its path, candidates and metrics.
    assert text.count('<table class="summary">') == 1
    assert re.findall(r'<li class="taken" data-node="(\d+)">', text) == \
        ["1", "3", "4"]
    section = text[text.index('<section class="kernel"'):]
    assert '<ol class="path">' in section
    rows = re.findall(r'<tr class="outcome-([a-z-]+)">.*?'
                      r'<td class="why">(.*?)</td>', section, re.S)
    assert len(rows) == 9 and all(why.strip() for _, why in rows)
    assert "16.8 MB" in section and "8.25 %" in section


def html_text(escaped: str) -> str:
    import html
    return html.unescape(escaped)
