"""The suite's log-fail handler (tests/helpers/logfail.py): a WARNING-or-higher record a test did
not declare fails it, from any thread; declared ones pass, and a declared one that never came
fails too. Run on a small test file in a fresh pytest process."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]
REPO = Path(__file__).resolve().parent.parent

CASES = """
import logging
import threading

import pytest

log = logging.getLogger("studio.example")


def test_quiet():
    log.info("nothing to see")


def test_unexpected_warning():
    log.warning("the thumbnail failed")


def test_error_in_a_thread():
    worker = threading.Thread(target=lambda: log.error("worker broke"))
    worker.start()
    worker.join()


@pytest.mark.expected_log("thumbnail of .*: no image", logger="studio.example")
def test_declared():
    log.warning("thumbnail of abc: no image")


@pytest.mark.expected_log("never logged")
def test_declared_but_missing():
    pass


def test_declared_in_the_body(expect_log):
    expect_log("boom", level="ERROR")
    log.error("boom")


def test_caplog_level_counts_as_expected(caplog):
    with caplog.at_level(logging.WARNING, logger="studio.example"):
        log.warning("looked for by the test")
    assert "looked for" in caplog.text
"""


def test_unexpected_records_fail_and_declared_ones_pass(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the child imports tests.helpers.logfail
    pytester.makeconftest('pytest_plugins = ["tests.helpers.logfail"]\n')
    pytester.makepyfile(test_cases=CASES)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    # test_declared_but_missing passes its call and errors at teardown
    result.assert_outcomes(passed=5, failed=2, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_unexpected_warning*",
            "*studio.example WARNING: the thumbnail failed*",
        ]
    )
    result.stdout.fnmatch_lines(["*studio.example ERROR: worker broke*"])
    result.stdout.fnmatch_lines(
        ["*expected log record(s) never came: WARNING matching 'never logged'*"]
    )
