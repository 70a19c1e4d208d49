"""Fail a test on any WARNING-or-higher log record it did not expect (qutebrowser's
`tests/helpers/logfail.py` `LogFailHandler`, reworked: records are collected from every thread and
checked after each test phase, so a record logged inside a task, a callback or a worker thread
fails the test too instead of raising where nobody sees it).

Declare what a test expects with the marker (repeatable)::

    @pytest.mark.expected_log(r"thumbnail of .*: no image", logger="studio.ui.controller")

or in the test body with the `expect_log` fixture: `expect_log(r"pattern", level="ERROR")`. An
expectation that no record matched fails the test too (pass `optional=True` where the record
depends on timing). As in qutebrowser, a record at exactly the level `caplog.at_level` set for
its logger counts as expected.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import pytest

MIN_LEVEL = logging.WARNING


@dataclass
class Expected:
    pattern: re.Pattern[str]
    logger: str | None
    level: int
    optional: bool
    seen: int = 0

    def matches(self, record: logging.LogRecord) -> bool:
        if record.levelno != self.level:
            return False
        if self.logger is not None and not (
            record.name == self.logger or record.name.startswith(self.logger + ".")
        ):
            return False
        return self.pattern.search(_text(record)) is not None

    def describe(self) -> str:
        where = f" from {self.logger}" if self.logger else ""
        return f"{logging.getLevelName(self.level)}{where} matching {self.pattern.pattern!r}"


def _text(record: logging.LogRecord) -> str:
    message = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        exc = record.exc_info[1]
        message += f"\n{type(exc).__name__}: {exc}"
    return message


_ROOT_LEVEL = logging.getLogger().level  # before any test: WARNING, Python's default


def _at_caplog_level(record: logging.LogRecord) -> bool:
    """A record at exactly the level a test set with `caplog.at_level` (on its logger, or on
    the root logger when the test changed the root's level)."""
    logger = logging.getLogger(record.name)
    if logger is not logging.getLogger() and logger.level == record.levelno:
        return True
    root = logging.getLogger().level
    return root != _ROOT_LEVEL and root == record.levelno


class LogFailHandler(logging.Handler):
    """Collects every WARNING-or-higher record (from any thread) until the next check."""

    def __init__(self) -> None:
        super().__init__(MIN_LEVEL)
        self._records: list[logging.LogRecord] = []
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if _at_caplog_level(record):
            return  # looked for by the test (judged now: caplog restores the level after)
        with self._guard:
            self._records.append(record)

    def take(self) -> list[logging.LogRecord]:
        with self._guard:
            records, self._records = self._records, []
        return records


_HANDLER = LogFailHandler()
_KEY = pytest.StashKey[list[Expected]]()
_FAILED = pytest.StashKey[bool]()


def _level(value: int | str) -> int:
    return value if isinstance(value, int) else logging.getLevelNamesMapping()[value.upper()]


def _expectation(pattern: str, logger: str | None, level: int | str, optional: bool) -> Expected:
    return Expected(re.compile(pattern), logger, _level(level), optional)


def _expected(item: pytest.Item) -> list[Expected]:
    found = item.stash.get(_KEY, None)
    if found is None:
        found = [
            _expectation(
                m.args[0],
                m.kwargs.get("logger"),
                m.kwargs.get("level", "WARNING"),
                bool(m.kwargs.get("optional", False)),
            )
            for m in item.iter_markers("expected_log")
        ]
        item.stash[_KEY] = found
    return found


def _check(item: pytest.Item, phase: str) -> None:
    expected = _expected(item)
    unexpected: list[logging.LogRecord] = []
    for record in _HANDLER.take():
        hit = next((e for e in expected if e.matches(record)), None)
        if hit is not None:
            hit.seen += 1
        else:
            unexpected.append(record)
    if unexpected:
        lines = "\n".join(
            f"  {r.name} {r.levelname}: {_text(r)}".replace("\n", "\n    ") for r in unexpected
        )
        pytest.fail(
            f"unexpected log record(s) during {phase} (declare expected ones with "
            f"@pytest.mark.expected_log or the expect_log fixture):\n{lines}",
            pytrace=False,
        )
    if phase == "teardown" and not item.stash.get(_FAILED, False):
        missing = [e.describe() for e in expected if not e.seen and not e.optional]
        if missing:
            pytest.fail("expected log record(s) never came: " + "; ".join(missing), pytrace=False)


def _phase(item: pytest.Item, phase: str) -> Generator[None, Any, Any]:
    try:
        result = yield
    except BaseException:
        _HANDLER.take()  # the phase failed already: its records belong to that failure
        item.stash[_FAILED] = True
        raise
    _check(item, phase)
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, Any, Any]:
    return (yield from _phase(item, "setup"))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    return (yield from _phase(item, "call"))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, Any, Any]:
    return (yield from _phase(item, "teardown"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "expected_log(pattern, logger=None, level='WARNING', optional=False): a log record "
        "at WARNING or above this test expects (see tests/helpers/logfail.py)",
    )
    logging.getLogger().addHandler(_HANDLER)


def pytest_unconfigure(config: pytest.Config) -> None:
    logging.getLogger().removeHandler(_HANDLER)


@pytest.fixture
def expect_log(request: pytest.FixtureRequest) -> Callable[..., None]:
    """`expect_log(pattern, logger=None, level="WARNING", optional=False)` in a test body."""

    def expect(
        pattern: str,
        *,
        logger: str | None = None,
        level: int | str = "WARNING",
        optional: bool = False,
    ) -> None:
        _expected(request.node).append(_expectation(pattern, logger, level, optional))

    return expect
