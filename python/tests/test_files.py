"""Files a user names are read only when they are regular files of a
reasonable size holding JSON of finite numbers and reasonable nesting; a
report with a zero time or a NaN speedup is refused. Each refusal is one
line from the command, never a traceback."""

import json
import os
import subprocess
import sys

import pytest

from autoprof import ReportError, load_outcomes, load_report
from autoprof.catalog import CatalogError, load_catalog
from autoprof.files import InputError, MAX_BYTES, read_json, read_text
from autoprof.learning import load_learner_log


def command(*args):
    return subprocess.run([sys.executable, "-m", "autoprof.cli", *args],
                          capture_output=True, text=True, timeout=60)


def one_line(proc, *words):
    """The command failed with one line naming `words`."""
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("autoprof: "), \
        proc.stderr
    for word in words:
        assert word in lines[0]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "report.fifo"
    os.mkfifo(path)
    return path


@pytest.fixture
def huge(tmp_path):
    # Sparse: larger than the cap without taking the disk.
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    return path


def test_a_fifo_is_refused_not_waited_on(fifo):
    with pytest.raises(InputError, match="report.fifo: not a regular file"):
        read_text(fifo)


def test_a_device_is_refused():
    with pytest.raises(InputError, match="/dev/zero: not a regular file"):
        read_text("/dev/zero")


def test_a_huge_file_is_refused(huge, tmp_path):
    with pytest.raises(InputError, match=r"huge.json: \d+ bytes, more than "
                                         r"the \d+ this reads"):
        read_text(huge)
    small = tmp_path / "small.json"
    small.write_text("[1, 2]")
    with pytest.raises(InputError, match="more than the 3 this reads"):
        read_text(small, limit=3)
    assert read_json(small) == [1, 2]


@pytest.mark.parametrize("text, message", [
    ('{"a": NaN}', "NaN is not a number JSON allows"),
    ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
    ('{"a": 1e400}', "a number too large for a float"),
    ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ("[" * 300 + "]" * 300, "nested deeper than 200 levels"),
    (b"\xff\xfe".decode("latin-1"), "not UTF-8"),
])
def test_hostile_json_is_refused(tmp_path, text, message):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(InputError, match=message):
        read_json(path)


def test_every_reader_of_user_files_refuses(fifo, huge):
    for path in (fifo, huge, "/dev/zero"):
        with pytest.raises(ReportError):
            load_report(path)
        with pytest.raises(ReportError):
            load_outcomes(path)
        with pytest.raises(ReportError):
            load_learner_log(path)
        with pytest.raises(CatalogError):
            load_catalog(path=path)


def test_a_tree_file_is_checked_before_the_tool_reads_it(fifo, huge):
    from autoprof.trees import load_tree
    # The tool is never run (it would block on the FIFO): a tool that does
    # not exist is not what the error says.
    for path in (fifo, huge, "/dev/zero"):
        with pytest.raises(CatalogError, match="not a regular file|more "
                                               "than"):
            load_tree(str(path), tool="/nonexistent/autoprof-learn")


def edited(tmp_path, report_path, edit):
    document = json.loads(report_path.read_text())
    edit(document["kernels"][0])
    path = tmp_path / "report.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda k: k.update(best_median_us=0), "'best_median_us' must be "
                                           "positive, got 0"),
    (lambda k: k.update(speedup=float("nan")), "NaN is not a number"),
    (lambda k: k.update(speedup=-1.0), "'speedup' must be positive"),
    (lambda k: k["baseline"]["timing"].update(median_us=0),
     "median_us must be a positive time"),
    (lambda k: k["baseline"]["timing"].update(mad_us=float("inf")),
     "Infinity is not a number"),
    (lambda k: k.update(features={"flops_f16": "many"}),
     "'flops_f16' should be float/int"),
    (lambda k: k.update(element_types=[16]),
     "'element_types' should list type names"),
])
def test_bad_reports_are_one_line(tmp_path, report_path, edit, message):
    path = edited(tmp_path, report_path, edit)
    with pytest.raises(ReportError, match=message):
        load_report(path)
    one_line(command("report", str(path), "--html",
                     str(tmp_path / "x.html")), "report.json", message)


def test_a_nan_in_a_document_built_in_python_is_refused(report_path):
    from autoprof import parse_report
    document = json.loads(report_path.read_text())
    document["kernels"][0]["speedup"] = float("nan")
    with pytest.raises(ReportError, match="'speedup' is nan, not a finite "
                                          "number"):
        parse_report(document)


def test_the_command_refuses_hostile_files_in_one_line(tmp_path, fifo, huge,
                                                       report_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    for path, words in ((fifo, ["not a regular file"]),
                        ("/dev/zero", ["not a regular file"]),
                        (huge, ["more than"]),
                        (deep, ["nested too deeply"])):
        one_line(command("report", str(path), "--html",
                         str(tmp_path / "x.html")), *words)
        one_line(command("outcomes", str(path)), *words)
    one_line(command("report", str(report_path), "--html",
                     str(tmp_path / "x.html"), "--learner-log",
                     str(fifo)), "not a regular file")
    one_line(command("report", str(report_path), "--html",
                     str(tmp_path / "x.html"), "--tree", str(fifo)),
             "not a regular file")
    one_line(command("report", str(report_path), "--html",
                     str(tmp_path / "x.html"), "--flops-peaks", "/dev/zero"),
             "not a regular file")
    one_line(command("report", str(report_path), "--html",
                     str(tmp_path / "x.html"), "--catalog", str(huge)),
             "more than")
