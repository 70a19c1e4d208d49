"""The core API the studio's agent sheet drives: keys off the event loop, replay events, follow-up
instructions on the same draft, per-model prices, and the selected node as context."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import keyring
import keyring.backends.fail
import keyring.errors
import pytest

from studio.agent.events import Usage
from studio.agent.guards import Limits
from studio.agent.keys import ENV, SERVICE, KeyStore
from studio.agent.loop import UserAnswer
from studio.agent.profiles import PROFILES, ModelPrice, profile_for
from studio.agent.replay import Replayer, replay
from studio.agent.run_events import RunEvent
from studio.agent.session import AgentSession
from studio.agent.snapshot import asave_snapshot, load_snapshot, save_snapshot
from studio.agent.testing import ScriptedModel, calls, reply
from studio.agent.trace import Masker
from tests.agent.scenarios import add_tab_steps
from tests.agent.util import ThreadRecordingKeyring
from tests.agent.util_spec import load
from tests.helpers.memory_keyring import MemoryKeyring

# -- keys: the async methods ----------------------------------------------------------------


class _LockedKeyring(MemoryKeyring):
    """A keychain that is there but refuses every call (a locked login keyring)."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("the keyring is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("the keyring is locked")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringLocked("the keyring is locked")


def test_async_keys_round_trip_through_the_keychain_off_the_loop_thread() -> None:
    backend = ThreadRecordingKeyring()
    keyring.set_keyring(backend)
    masker = Masker()
    store = KeyStore(masker)

    async def go() -> list[Any]:
        loop_thread = threading.current_thread()
        empty = await store.aget("openai")
        stored = await store.aset("openai", "sk-async-keychain-0001")
        found = await store.aget("openai")
        await store.adelete("openai")
        gone = await store.aget("openai")
        return [loop_thread, empty, stored, found, gone]

    loop_thread, empty, stored, found, gone = asyncio.run(go())
    assert (empty.key, empty.source, empty.warning) == (None, None, None)
    assert (stored.source, stored.warning) == ("keychain", None)
    assert (found.key, found.source) == ("sk-async-keychain-0001", "keychain")
    assert (gone.key, gone.source) == (None, None)
    assert (SERVICE, "openai") not in backend.store
    # Every keyring call ran in a worker thread, never on the event loop's thread.
    assert len(backend.threads) == 5
    assert all(t is not loop_thread for t in backend.threads)
    # The key is masked in logs and traces from the moment it was read or stored.
    assert "sk-async-keychain-0001" not in masker.text("key: sk-async-keychain-0001")


def test_async_keys_see_the_same_keys_as_the_blocking_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = KeyStore(Masker())
    store.set("groq", "gsk-blocking-set-0002")
    assert asyncio.run(store.aget("groq")).key == "gsk-blocking-set-0002"
    asyncio.run(store.aset("groq", "gsk-async-set-0003"))
    assert store.get("groq").key == "gsk-async-set-0003"
    monkeypatch.setenv(ENV, "sk-from-env-0004")
    lookup = asyncio.run(store.aget("groq"))
    assert (lookup.key, lookup.source) == ("sk-from-env-0004", "env")


@pytest.mark.parametrize(
    ("backend", "error"),
    [
        (keyring.backends.fail.Keyring(), "no Secret Service or other keychain is running"),
        (_LockedKeyring(), "the keychain is locked"),
    ],
)
def test_async_keys_without_a_usable_keychain_keep_the_key_for_the_session(
    backend: Any, error: str
) -> None:
    keyring.set_keyring(backend)
    store = KeyStore(Masker())

    async def go() -> list[Any]:
        missing = await store.aget("openai")
        stored = await store.aset("openai", "sk-session-only-0005")
        found = await store.aget("openai")
        await store.adelete("openai")  # no keychain to delete from: no error either
        after = await store.aget("openai")
        return [missing, stored, found, after]

    missing, stored, found, after = asyncio.run(go())
    assert missing.key is None and missing.warning
    assert "No usable OS keychain" in missing.warning and error in missing.warning
    assert stored.source == "session" and stored.warning and "this session only" in stored.warning
    assert (found.key, found.source) == ("sk-session-only-0005", "session")
    assert after.key is None  # removing it removed the session copy too


# -- replay streams the events of a live run ------------------------------------------------


def _without_ids(event: dict[str, Any]) -> tuple[Any, ...]:
    """What a viewer sees of an event: its type and content (not trace ids or timings)."""
    return (
        event["type"],
        event.get("name"),
        event.get("text"),
        event.get("summary"),
        event.get("question"),
        event.get("status"),
    )


def test_replay_streams_the_live_runs_events_in_order(tmp_path: Path) -> None:
    live: list[dict[str, Any]] = []
    session = AgentSession(
        ScriptedModel(add_tab_steps()),
        load("tabs-app"),
        on_event=lambda e: live.append(e.to_json()),
    )

    async def go() -> None:
        paused = await session.run("Add a settings tab")
        assert paused.status == "needs_input"
        await session.resume(UserAnswer("settings"))

    asyncio.run(go())
    snapshot = load_snapshot(save_snapshot(session.snapshot(), tmp_path / "run.json"))

    seen: list[tuple[Any, ...]] = []
    replayer: Replayer

    def on_event(event: RunEvent) -> None:
        # Events arrive while the replay runs: a revision event finds its revision in the draft.
        seen.append((*_without_ids(event.to_json()), len(replayer.session.draft.revisions)))

    replayer = Replayer(snapshot, on_event=on_event)
    report = asyncio.run(replayer.run())
    assert report.ok and report.drift == []

    live_view = [_without_ids(e) for e in live]
    assert [s[:-1] for s in seen] == live_view
    kinds = [s[0] for s in seen]
    assert kinds[0] == "run_started" and kinds[-1] == "completed"
    assert kinds.index("input_required") < kinds.index("revision")
    revision_events = [s for s in seen if s[0] == "revision"]
    assert [s[-1] for s in revision_events] == list(range(1, len(revision_events) + 1))
    assert replayer.session.info["replay_of"] == snapshot["trace_id"]


def test_a_snapshot_saved_from_the_event_loop_is_masked_and_replays(tmp_path: Path) -> None:
    masker = Masker(["sk-secret-in-a-reply-0006"])
    model = ScriptedModel([reply("Your key sk-secret-in-a-reply-0006 is not needed.")])
    session = AgentSession(model, load("blank-screen"), masker=masker)
    asyncio.run(session.run("Look only"))
    path = asyncio.run(asave_snapshot(session.snapshot(), tmp_path / "runs" / "run.json", masker))
    assert path == tmp_path / "runs" / "run.json"
    assert "sk-secret-in-a-reply-0006" not in path.read_text()
    assert [p.name for p in path.parent.iterdir()] == ["run.json"]  # no temp file left behind
    assert asyncio.run(replay(load_snapshot(path))).ok


def test_replay_without_on_event_still_reports(tmp_path: Path) -> None:
    session = AgentSession(ScriptedModel([reply("Nothing to change.")]), load("blank-screen"))
    asyncio.run(session.run("Look only"))
    events: list[dict[str, Any]] = []
    report = asyncio.run(replay(session.snapshot(), on_event=lambda e: events.append(e.to_json())))
    assert report.ok
    assert [e["type"] for e in events][0] == "run_started"
    assert events[-1]["type"] == "completed" and events[-1]["text"] == "Nothing to change."


# -- a follow-up instruction on the same draft ----------------------------------------------


def _rename(title: str) -> dict[str, Any]:
    node = {"type": "topAppBar", "id": "bar", "title": title}
    return {"ops": [{"op": "replaceNode", "id": "bar", "node": node}], "summary": f"Title {title}"}


def test_a_follow_up_continues_the_draft_with_another_model_and_limits() -> None:
    first = ScriptedModel([calls(("patch", _rename("Inbox"))), reply("Renamed.")])
    session = AgentSession(first, load("blank-screen"), limits=Limits(10, None))
    assert asyncio.run(session.run("Call it Inbox")).status == "completed"

    second = ScriptedModel(
        [calls(("patch", _rename("Mail"))), reply("Now Mail.")], model="the-local-one"
    )
    result = asyncio.run(
        session.follow_up("Actually, Mail", selected="bar", model=second, limits=Limits(5, 100_000))
    )
    assert result.status == "completed"
    first.assert_complete()
    second.assert_complete()
    # Same draft: both revisions are there, newest last, and the spec has the second title.
    assert [r.summary for r in session.draft.revisions] == ["Title Inbox", "Title Mail"]
    assert session.draft.spec["root"]["children"][0]["title"] == "Mail"
    # Same conversation: the new model saw the first instruction and its answer.
    users = [m["content"] for m in second.requests[0].messages if m["role"] == "user"]
    assert users[0] == "Call it Inbox" and users[1].startswith("Actually, Mail")
    assert session.limits == Limits(5, 100_000)
    assert session.snapshot()["model"] == "the-local-one"


def test_a_follow_up_needs_an_open_draft() -> None:
    session = AgentSession(
        ScriptedModel([calls(("patch", _rename("Inbox"))), reply("Renamed.")]),
        load("blank-screen"),
    )
    asyncio.run(session.run("Call it Inbox"))
    session.draft.apply()
    with pytest.raises(RuntimeError, match="the draft was applied"):
        asyncio.run(session.follow_up("More"))


def test_a_new_turn_cap_applies_to_the_follow_up() -> None:
    model = ScriptedModel([reply("Hello.")])
    session = AgentSession(model, load("blank-screen"), limits=Limits(10, None))
    asyncio.run(session.run("Hi"))
    model.add(calls(("outline", {})))
    result = asyncio.run(session.follow_up("Look around", limits=Limits(1, None)))
    assert result.status == "failed" and "turn cap of 1 turns" in result.reason


# -- the selected node goes with the instruction once ---------------------------------------


def test_the_selected_subtree_is_sent_once() -> None:
    model = ScriptedModel([reply("ok"), reply("It already reads right.")])  # nudged once
    session = AgentSession(model, load("blank-screen"))
    asyncio.run(session.run("Rename this", selected="bar"))
    sent = model.requests[0].messages[1]["content"]
    assert sent.startswith("Rename this\n\n(Selected node: bar)")
    subtree = sent.split("(Selected node: bar)\n", 1)[1]
    assert json.loads(subtree)["id"] == "bar"
    assert sent.count('"id": "bar"') == 1


def test_a_selection_that_no_longer_exists_is_named() -> None:
    model = ScriptedModel([reply("ok"), reply("There is nothing to rename.")])  # nudged once
    session = AgentSession(model, load("blank-screen"))
    asyncio.run(session.run("Rename this", selected="gone"))
    sent = model.requests[0].messages[1]["content"]
    assert sent.endswith("(Selected node: gone, which no longer exists)")


# -- prices -----------------------------------------------------------------------------------


def test_cost_from_the_profiles_list_prices() -> None:
    openai = PROFILES["openai"]
    usage = Usage(150_000, 30_000)
    # gpt-4o-mini: 150k x $0.15/M + 30k x $0.60/M
    assert openai.cost("gpt-4o-mini", usage) == pytest.approx(0.0405)
    assert openai.cost("gpt-4o", Usage(1_000_000, 1_000_000)) == pytest.approx(12.50)
    # A dated snapshot of a priced model has its price; an unknown model has none.
    assert openai.cost("gpt-4o-mini-2024-07-18", usage) == pytest.approx(0.0405)
    assert openai.cost("some-new-model", usage) is None
    assert openai.price("gpt-4.1") == ModelPrice(2.00, 8.00)
    # A local server is free whatever the model; an unknown cloud server's price is unknown.
    for name in ("ollama", "lmstudio", "llamacpp", "vllm"):
        assert PROFILES[name].cost("llama3.2", usage) == 0.0
    assert PROFILES["generic"].cost("gpt-4o-mini", usage) is None
    # A custom base URL keeps the profile's prices.
    assert profile_for("https://proxy.example/v1", "openai").cost("gpt-4o-mini", usage) == (
        pytest.approx(0.0405)
    )
