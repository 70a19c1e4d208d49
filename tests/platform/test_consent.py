"""The consent broker: only the UI's answerer decides; "always" is remembered and revocable."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from studio.platform.consent import (
    ConsentBroker,
    ConsentDecision,
    ConsentRequest,
    GrantStore,
    PendingConsent,
)
from studio.platform.paths import consent_grants_path


def share_request(prototype: str = "proto-1", **args: object) -> ConsentRequest:
    return ConsentRequest(
        prototype_id=prototype,
        module="share",
        call="share.text",
        resolved_args=args or {"text": "hello"},
        sensitive=False,
        side_effect=True,
    )


class ScriptedUI:
    """Answers each question it is shown with the next scripted decision."""

    def __init__(self, broker: ConsentBroker, answers: list[ConsentDecision] | None = None):
        self.shown: list[PendingConsent] = []
        self.withdrawn: list[str] = []
        self.answers = list(answers or [])
        self.answerer = broker.connect_ui(self.present, self.withdrawn.append)
        self.presented: asyncio.Event | None = None

    async def next_question(self) -> PendingConsent:
        """Wait until a question is shown (state, not time)."""
        self.presented = self.presented or asyncio.Event()
        await self.presented.wait()
        self.presented.clear()
        return self.shown[-1]

    def present(self, pending: PendingConsent) -> None:
        self.shown.append(pending)
        if self.presented is not None:
            self.presented.set()
        if self.answers:
            decision = self.answers.pop(0)
            asyncio.get_running_loop().call_soon(self.answerer.answer, pending.id, decision)


def test_grants_file_honours_proto_studio_home(_isolated_home: Path) -> None:
    assert consent_grants_path() == _isolated_home / "config" / "platform-consent.json"


def test_no_ui_means_deny() -> None:
    broker = ConsentBroker()
    assert asyncio.run(broker.request(share_request())) is ConsentDecision.DENY


def test_allow_once_asks_every_time() -> None:
    async def go() -> tuple[list[ConsentDecision], ScriptedUI]:
        broker = ConsentBroker()
        ui = ScriptedUI(broker, [ConsentDecision.ALLOW_ONCE, ConsentDecision.DENY])
        first = await broker.request(share_request())
        second = await broker.request(share_request())
        return [first, second], ui

    decisions, ui = asyncio.run(go())
    assert decisions == [ConsentDecision.ALLOW_ONCE, ConsentDecision.DENY]
    assert len(ui.shown) == 2
    assert ui.shown[0].request.call == "share.text"
    assert not consent_grants_path().exists()


def test_always_is_remembered_per_prototype_and_revocable() -> None:
    async def go() -> None:
        broker = ConsentBroker()
        ui = ScriptedUI(broker, [ConsentDecision.ALWAYS])
        assert await broker.request(share_request("proto-1")) is ConsentDecision.ALWAYS
        assert await broker.request(share_request("proto-1")) is ConsentDecision.ALWAYS
        assert len(ui.shown) == 1  # the second call did not ask

        # A new broker (next session) reads the grant from disk.
        later = ConsentBroker()
        later_ui = ScriptedUI(later, [ConsentDecision.DENY, ConsentDecision.DENY])
        assert await later.request(share_request("proto-1")) is ConsentDecision.ALWAYS
        # Another prototype is not covered by it.
        assert await later.request(share_request("proto-2")) is ConsentDecision.DENY
        assert [(g.prototype_id, g.call) for g in await later.grants()] == [
            ("proto-1", "share.text")
        ]
        assert await later.revoke("proto-1", "share.text") == 1
        assert await later.request(share_request("proto-1")) is ConsentDecision.DENY
        assert len(later_ui.shown) == 2
        assert json.loads(consent_grants_path().read_text())["grants"] == []

    asyncio.run(go())


def test_only_the_connected_ui_can_answer() -> None:
    async def go() -> None:
        broker = ConsentBroker()
        ui = ScriptedUI(broker)
        with pytest.raises(RuntimeError, match="already connected"):
            broker.connect_ui(lambda pending: None)
        task = asyncio.ensure_future(broker.request(share_request()))
        pending = await ui.next_question()
        assert broker.pending() == [pending]
        # Whatever else holds the broker has no way to approve: a forged answerer is refused.
        from studio.platform.consent import ConsentAnswerer

        forged = ConsentAnswerer(broker)
        with pytest.raises(PermissionError):
            forged.answer(pending.id, ConsentDecision.ALWAYS)
        assert not task.done()
        assert ui.answerer.answer(pending.id, ConsentDecision.DENY)
        assert await task is ConsentDecision.DENY
        assert not ui.answerer.answer(pending.id, ConsentDecision.ALWAYS)  # already decided

    asyncio.run(go())


def test_timeout_and_ui_closing_deny_and_withdraw() -> None:
    async def go() -> None:
        broker = ConsentBroker(timeout=0.05)
        ui = ScriptedUI(broker)
        assert await broker.request(share_request()) is ConsentDecision.DENY
        assert ui.withdrawn == [ui.shown[0].id]

        broker.timeout = 60
        task = asyncio.ensure_future(broker.request(share_request()))
        await ui.next_question()
        broker.disconnect_ui(ui.answerer)
        assert await task is ConsentDecision.DENY

    asyncio.run(go())


@pytest.mark.expected_log(
    "unreadable consent grants, treated as none", logger="studio.platform.consent"
)
def test_unreadable_grants_file_means_no_grants() -> None:
    path = consent_grants_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json")

    async def go() -> ConsentDecision:
        broker = ConsentBroker()
        ScriptedUI(broker, [ConsentDecision.DENY])
        return await broker.request(share_request())

    assert asyncio.run(go()) is ConsentDecision.DENY


def test_grant_writes_are_atomic(tmp_path: Path) -> None:
    store = GrantStore(tmp_path / "c.json")
    asyncio.run(store.grant("p", "share.text"))
    assert os.listdir(tmp_path) == ["c.json"]
