import re
import subprocess
import sys

from autoprof import load_catalog, load_report
from autoprof.html import render


def test_page_has_every_kernel_its_candidates_and_charts(report_path):
    page = render(load_report(report_path), title="upstream vecmat and copy")
    assert page.startswith("<!DOCTYPE html>")
    for kernel in ("vecmat_kernel::vecmat_kernel", "copy_kernel::copy_kernel"):
        assert f'<section class="kernel" id="{kernel}">' in page
    assert "register-accumulate=1" in page and "form-blocks=128" in page
    assert "kernels::broken: cannot measure @broken" in page
    # Two rooflines and the summary chart, embedded: nothing is fetched.
    assert len(re.findall(r'src="data:image/png;base64,', page)) == 3
    assert not re.search(r'(src|href)="(https?:|//)', page)


def test_metric_meanings_come_from_the_catalog(report_path, learn_tool):
    catalog = load_catalog("sm_90", tool=learn_tool)
    meaning = catalog.meaning("dram__bytes_read.sum")
    assert meaning.unit == "bytes" and "device memory" in meaning.meaning
    page = render(load_report(report_path), catalog)
    assert meaning.meaning.replace("'", "&#x27;") in page


def test_command_writes_the_page(tmp_path, report_path):
    out = tmp_path / "run.html"
    proc = subprocess.run([sys.executable, "-m", "autoprof.cli", "report",
                           str(report_path), "--html", str(out),
                           "--learn-tool", "/nonexistent/autoprof-learn"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "wrote" in proc.stdout and "2 kernels" in proc.stdout
    assert "metric meanings left out" in proc.stderr
    assert "vecmat_kernel" in out.read_text()


def test_command_reports_a_bad_report(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    proc = subprocess.run([sys.executable, "-m", "autoprof.cli", "report",
                           str(bad), "--html", str(tmp_path / "x.html")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "bad.json: the document: missing 'kernels'" in proc.stderr


def test_learning_curve_from_a_learner_log(report_path):
    from autoprof.learning import load_learner_log
    rounds = load_learner_log(report_path.parent / "learner-log.json")
    assert [r.round for r in rounds] == [1, 2]
    assert rounds[0].accepted and not rounds[1].accepted
    assert rounds[1].train_score > rounds[0].train_score
    page = render(load_report(report_path), learner_rounds=rounds)
    assert "Learning the profiling tree" in page
    assert 'alt="training score per round"' in page
    assert "round 2: stop: no edit improves the training score" in page


def test_learner_log_with_refused_proposals(tmp_path, learn_tool):
    # autoprof-learn logs refused proposals with their reason and no score.
    import subprocess
    from autoprof.learning import load_learner_log
    from autoprof.plots import learning_curve
    repo = __import__("pathlib").Path(__file__).resolve().parents[2]
    log = tmp_path / "log.json"
    subprocess.run([learn_tool, "--outcomes",
                    str(repo / "test/Learn/Inputs/partial-outcomes.json"),
                    "-o", str(tmp_path / "tree.mlir"), "--log", str(log)],
                   check=True, capture_output=True)
    rounds = load_learner_log(log)
    refused = [p for p in rounds[0].proposals if p.rejected]
    assert refused and refused[0].train_score is None
    assert "would have no measured outcome" in refused[0].rejected
    assert learning_curve(rounds) is not None


def test_bad_learner_log(tmp_path):
    import pytest
    from autoprof import ReportError
    from autoprof.learning import load_learner_log
    bad = tmp_path / "log.json"
    bad.write_text('[{"round": 1}]')
    with pytest.raises(ReportError, match=r"log.json: round \[0\]: missing "
                                          r"or bad 'train_score'"):
        load_learner_log(bad)


def test_profiling_tree_is_drawn(report_path, learn_tool):
    from autoprof.trees import Leaf, Split, load_tree
    shipped = load_tree("-", tool=learn_tool)
    assert shipped.name == "h200_start" and isinstance(shipped.root, Split)
    start = load_tree(str(report_path.parents[3] /
                          "test/Learn/Inputs/start.tree.mlir"),
                      tool=learn_tool)
    assert start.root.label() == "#1: grid_blocks < 1000"
    assert start.root.missing == "else"
    assert [leaf.groups for leaf in start.leaves()] == [
        ["SpeedOfLight"], ["LaunchStats", "Occupancy"]]
    assert all(isinstance(leaf, Leaf) for leaf in shipped.leaves())
    page = render(load_report(report_path), profiling_tree=shipped)
    assert "Profiling tree @h200_start" in page
    # The tree is HTML, which wraps at any width, not a picture.
    assert '<ul class="tree">' in page
    assert 'alt="profiling tree' not in page


def test_a_missing_tree_file_is_an_error(tmp_path, learn_tool):
    import pytest
    from autoprof import CatalogError
    from autoprof.trees import load_tree
    with pytest.raises(CatalogError, match="none.mlir: cannot read"):
        load_tree(str(tmp_path / "none.mlir"), tool=learn_tool)


def test_page_says_where_the_evaluation_time_went(seconds_report_path,
                                                  report_path):
    page = render(load_report(seconds_report_path))
    assert re.search(r'<p class="seconds">Evaluations took [0-9.]+ s: '
                     r'lowering to PTX [0-9.]+ s, worker setup [0-9.]+ s, '
                     r'waiting for the GPU [0-9.]+ s, verification [0-9.]+ s, '
                     r'timing [0-9.]+ s, profiling '
                     r'[0-9.]+ s\.</p>', page)
    assert "<th>evaluation</th>" in page
    assert re.search(r'<td class="num">[0-9]+\.[0-9]{2} s</td>', page)
    # Without the record there is no such line, and the column says '-'.
    page = render(load_report(report_path))
    assert 'class="seconds"' not in page
    assert '<td class="num">-</td>' in page


DATA = __import__("pathlib").Path(__file__).resolve().parent / "data"


def test_kernels_of_one_name_are_told_apart():
    # Upstream's softmax is four gpu.modules each holding a softmax_kernel:
    # the chart names them with their module, one bar each.
    from autoprof.plots import speedups
    report = load_report(DATA / "h200-softmax.blocks.json")
    assert len({k.name for k in report.kernels}) == 1
    figure = speedups(report)
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert labels == [k.kernel for k in report.kernels]
    assert len(figure.axes[0].patches) == len(report.kernels)


def test_the_compute_roof_is_the_gpus_and_the_types(tmp_path,
                                                    h100_f16_path):
    # An f16 matmul measured on an H100 is held to the H100's FP16
    # tensor-core peak, not an FP32 one (against which it would run at 362 %
    # of the roofline).
    page = tmp_path / "page.html"

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "autoprof.cli", "report",
                               str(h100_f16_path), "--html", str(page),
                               "--learn-tool", "/nonexistent/learn",
                               *extra], capture_output=True, text=True)

    assert run().returncode == 0
    text = page.read_text()
    assert "H100 SXM FP16 tensor-core, 989.4 TFLOP/s" in text
    assert "24.5 %" in text and "Above the roofline" not in text
    # One roof for all, from the table of peaks per program or given.
    assert run("--flops-peaks",
               str(DATA / "flops-peaks.json")).returncode == 0
    text = page.read_text()
    assert "989.4 TFLOP/s (matmul_f16&#x27;s entry of" in text
    assert run("--peak-flops", "67e12").returncode == 0
    text = page.read_text()
    assert "362 %" in text and "Above the roofline" in text
    for bad in ("0", "nan", "inf"):
        proc = run("--peak-flops", bad)
        assert proc.returncode == 1
        assert proc.stderr == "autoprof: --peak-flops must be positive\n"


def test_a_page_that_cannot_be_written_is_an_error(tmp_path, report_path):
    proc = subprocess.run([sys.executable, "-m", "autoprof.cli", "report",
                           str(report_path), "--html",
                           str(tmp_path / "missing" / "x.html")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("autoprof: ")
    assert "Traceback" not in proc.stderr


def test_why_a_faster_candidate_was_not_kept_is_shown(tmp_path,
                                                      report_path):
    import json
    document = json.loads(report_path.read_text())
    candidate = document["kernels"][0]["candidates"][0]
    candidate["retime_error"] = "the worker <crashed> & left"
    candidate["sanitizer"] = {"tool": "racecheck", "errors": 1}
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document))
    page = render(load_report(path))
    assert "re-timing failed: the worker &lt;crashed&gt; &amp; left" in page
    assert ("compute-sanitizer: {&quot;tool&quot;: &quot;racecheck&quot;"
            in page)


def test_malformed_numbers_and_labels_are_errors(tmp_path, report_path):
    import json
    import pytest
    from autoprof import ReportError
    for field, value, message in (
            ("accepted", [1], "'accepted' should list the accepted "
                              "rewrites' labels"),
            ("compulsory_bytes", 10 ** 400, "'compulsory_bytes' is too "
                                            "large a number")):
        document = json.loads(report_path.read_text())
        document["kernels"][0][field] = value
        path = tmp_path / "report.json"
        path.write_text(json.dumps(document))
        with pytest.raises(ReportError, match=message):
            load_report(path)


def test_the_page_says_why_each_candidate_was_not_kept(mixed_outcomes_path):
    page = render(load_report(mixed_outcomes_path))
    rows = re.findall(r'<tr class="outcome-([a-z-]+)">(.*?)</tr>', page,
                      re.S)
    assert [kind for kind, _ in rows] == [
        "rejected", "skipped", "error", "slower", "noise", "unconfirmed",
        "retime-failed", "accepted", "noise"]
    for kind, row in rows:
        why = re.search(r'<td class="why">(.*?)</td>', row).group(1)
        assert why.strip(), kind
    assert "within the noise: 99.5 us against the incumbent&#x27;s 100 us" \
        in page
    assert '<td class="outcome">within noise</td>' in page
    assert "outputs differ from the original&#x27;s" in page


def test_metric_values_carry_units(mixed_outcomes_path):
    page = render(load_report(mixed_outcomes_path))
    for shown in ("100 us", "8.25 %", "251 GB/s", "16.8 MB", "1.98 GHz",
                  "33.6 M"):
        assert f">{shown}</td>" in page, shown
    assert "not collected: not in this leaf&#x27;s groups" in page
    # The raw value stays in the cell's title.
    assert 'title="33558528"' in page
    # Times in the tables are microseconds with their MAD.
    assert '100 us <span class="mad">± 1.00 us</span>' in page


def test_the_tree_highlights_the_path_each_kernel_took(mixed_outcomes_path,
                                                       learn_tool):
    from autoprof.trees import load_tree
    tree = load_tree("-", tool=learn_tool)
    path = tree.path_to(4)
    assert [(node.id, branch) for node, branch in path] == [
        (1, "no"), (3, "yes"), (4, "")]
    assert tree.path_to(999) is None
    page = render(load_report(mixed_outcomes_path), profiling_tree=tree)
    taken = re.findall(r'<li class="taken" data-node="(\d+)">', page)
    assert taken == ["1", "3", "4"]
    assert "&larr; matmul_bf16_kernel" in page
    # The kernel's own section lists the path, its leaf last.
    assert re.search(r'<ol class="path"><li>#1: grid_blocks &lt; 132: '
                     r'<b>no</b></li><li>#3: tensor_core_ops &gt; 0: '
                     r'<b>yes</b></li><li class="leaf">leaf #4: ', page)


def test_a_report_of_another_tree_is_not_drawn_on_this_one(
        mixed_outcomes_path, learn_tool, tmp_path):
    import json
    from autoprof.trees import load_tree
    document = json.loads(mixed_outcomes_path.read_text())
    document["kernels"][0]["baseline"]["profile_tree"] = "learned"
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document))
    page = render(load_report(path), profiling_tree=load_tree(
        "-", tool=learn_tool))
    assert 'class="taken"' not in page
    assert "Not profiled by this tree's leaves: matmul_bf16_kernel" \
        in page
    assert "Profiled by leaf #4 of tree @learned" in page


def test_the_command_draws_the_shipped_tree_the_report_names(
        tmp_path, mixed_outcomes_path, learn_tool):
    out = tmp_path / "run.html"
    proc = subprocess.run([sys.executable, "-m", "autoprof.cli", "report",
                           str(mixed_outcomes_path), "--html", str(out),
                           "--learn-tool", learn_tool],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Profiling tree @h200_start" in out.read_text()
