"""The harness server with a real WebSocket client (`websockets`) on 127.0.0.1: a turn streams
typed events and ends exactly once; askUser is answered; apply lands a revision in the library
(as the studio window reads it); cancel, reconnect-and-resume by seq, a wrong token, bad frames,
several sessions at once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from studio.agent.testing import ScriptedModel, calls, reply
from studio.library.store import Library
from studio.service.protocol import TERMINAL
from tests.helpers.demo import RENAME_GO
from tests.service.helpers import TOKEN, Client, GatedModel, make_library, running_server


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_a_turn_streams_typed_events_and_apply_lands_a_revision_in_the_library() -> None:
    model = ScriptedModel(
        [
            calls(("outline", {}), ("patch", RENAME_GO), text="Renaming."),
            reply("Renamed it to Send."),
        ]
    )
    library, entry_id = make_library()

    async def main() -> None:
        async with running_server(model, library=library) as (_, url, _):
            client, welcome = await Client.open(url)
            assert welcome["prototypes"] == [{"id": entry_id, "name": "Demo"}]
            assert welcome["state"]["phase"] == "idle"
            await client.send("start", prototype="Demo", instruction="Rename the button to Send")
            end = await client.until(*TERMINAL)
            assert end["type"] == "completed"
            assert end["text"] == "Renamed it to Send."
            assert end["revisions"] == 1
            kinds = client.types()
            assert kinds[0] == "turn_started"
            assert kinds.count("completed") == 1
            tools = [e for e in client.seen if e["type"] == "tool"]
            assert [(t["name"], t["phase"]) for t in tools] == [
                ("outline", "started"),
                ("outline", "finished"),
                ("patch", "started"),
                ("patch", "finished"),
            ]
            assert all(t["ok"] for t in tools if t["phase"] == "finished")
            draft = next(e for e in client.seen if e["type"] == "draft")
            assert draft["summary"] == "Rename the button to Send"
            assert draft["changed"] == ["go"] or "go" in " ".join(draft["changed"])
            assert "".join(e["text"] for e in client.seen if e["type"] == "text").startswith(
                "Renaming."
            )
            assert any(e["type"] == "counters" and e["total_tokens"] > 0 for e in client.seen)
            seqs = [e["seq"] for e in client.seen]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # one by one, in order
            assert {e["turn"] for e in client.seen} == {1}
            # Nothing is saved before the designer applies.
            assert Library().load_spec(entry_id)["root"]["children"][1]["label"] == "Go"
            await client.send("apply")
            applied = await client.until("applied")
            assert applied["summary"] == "Rename the button to Send"
            await client.close()

    run(main())
    # The studio window opens the entry from the library: the spec and the agent's revision.
    fresh = Library()
    assert fresh.load_spec(entry_id)["root"]["children"][1]["label"] == "Send"
    revisions = fresh.load_revisions(entry_id)
    assert revisions is not None
    assert [r.author for r in revisions.revisions] == ["agent"]
    assert revisions.revisions[-1].summary == "Rename the button to Send"
    model.assert_complete()


def test_ask_user_is_answered_and_discard_leaves_the_library_alone() -> None:
    model = ScriptedModel(
        [
            calls(("askUser", {"question": "Which label?", "options": ["Send", "Go on"]})),
            calls(("patch", RENAME_GO)),
            reply("Done."),
        ]
    )
    library, entry_id = make_library()

    async def main() -> None:
        async with running_server(model, library=library) as (_, url, _):
            client, _ = await Client.open(url)
            await client.send("answer", text="too early")
            refused = await client.until("error")
            assert refused["code"] == "not_waiting"
            await client.send("start", prototype=entry_id, instruction="Rename the button")
            ask = await client.until("ask_user")
            assert ask["question"] == "Which label?"
            assert ask["options"] == ["Send", "Go on"]
            await client.send("answer", text="Send", call_id=ask["call_id"])
            end = await client.until(*TERMINAL)
            assert end["type"] == "completed"
            answered = model.requests[1].messages[-1]
            assert json.loads(answered["content"]) == {"answer": "Send"}
            await client.send("discard")
            await client.until("discarded")
            await client.send("apply")
            nothing = await client.until("error")
            assert nothing["code"] == "no_draft"
            await client.close()

    run(main())
    assert Library().load_spec(entry_id)["root"]["children"][1]["label"] == "Go"


def test_cancel_mid_turn_ends_it_once_as_cancelled() -> None:
    model = GatedModel([calls(("outline", {}), text="Looking")])
    model.hold.add(0)

    async def main() -> None:
        async with running_server(model) as (_, url, _):
            client, _ = await Client.open(url)
            await client.send("start", prototype="Demo", instruction="Rename the button")
            await client.until("turn_started")
            await asyncio.wait_for(model.waiting.wait(), 10)
            await client.send("cancel")
            end = await client.until(*TERMINAL)
            assert end["type"] == "cancelled"
            assert end["reason"] == "cancelled by the user"
            # No second terminal event: a ping round trip shows nothing else was queued.
            await client.send("ping")
            await client.until("pong")
            assert [t for t in client.types() if t in TERMINAL] == ["cancelled"]
            await client.send("cancel")
            late = await client.until("error")
            assert late["code"] == "not_waiting"
            await client.close()

    run(main())


def test_a_client_that_reconnects_resumes_from_the_last_seq_it_saw() -> None:
    model = GatedModel(
        [calls(("patch", RENAME_GO), text="Renaming the button."), reply("Renamed.")]
    )
    model.hold.add(0)

    async def main() -> None:
        async with running_server(model) as (_, url, _):
            first, welcome = await Client.open(url)
            session = welcome["session"]
            await first.send("start", prototype="Demo", instruction="Rename the button")
            started = await first.until("turn_started")
            await asyncio.wait_for(model.waiting.wait(), 10)
            await first.ws.close()  # the phone's browser lost the network mid-turn
            model.gate.set()
            again, welcome = await Client.open(url, session=session, after=started["seq"])
            assert welcome["resumed"] is True
            assert welcome["session"] == session
            end = await again.until(*TERMINAL)
            assert end["type"] == "completed"
            resumed = [e["seq"] for e in again.seen if "seq" in e]
            assert resumed[0] == started["seq"] + 1  # nothing missed, nothing repeated
            assert resumed == list(range(resumed[0], resumed[0] + len(resumed)))
            assert "turn_started" not in again.types()
            assert "draft" in again.types()
            # An unknown session id: said so, and a new session instead.
            other, welcome = await Client.open(url, session="no-such-session", after=3)
            assert other.hello[0]["type"] == "error"
            assert other.hello[0]["code"] == "unknown_session"
            assert welcome["resumed"] is False
            await again.close()
            await other.close()

    run(main())


def test_a_wrong_token_gets_a_reason_and_a_closed_connection() -> None:
    async def main() -> None:
        async with running_server(ScriptedModel()) as (_, url, _):
            ws = await connect(url)
            await ws.send(json.dumps({"type": "hello", "token": "not-" + TOKEN}))
            refusal = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert refusal["type"] == "error"
            assert refusal["code"] == "unauthorized"
            assert "wrong token" in refusal["message"]
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 4401
            assert "wrong token" in closed.value.rcvd.reason
            # Anything before hello is refused with the reason, and the connection stays.
            ws = await connect(url)
            await ws.send(json.dumps({"type": "start", "prototype": "Demo", "instruction": "x"}))
            early = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert early["code"] == "no_hello"
            await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "welcome"
            await ws.close()

    run(main())


def test_no_hello_in_time_is_closed_with_the_reason() -> None:
    async def main() -> None:
        async with running_server(ScriptedModel(), hello_timeout=0.3) as (_, url, _):
            ws = await connect(url)
            refusal = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert refusal["code"] == "no_hello"
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408

    run(main())


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("{not json", "bad_frame", "not JSON"),
        ("[1, 2]", "bad_frame", "JSON object"),
        ('{"type": "fly"}', "unknown_type", "unknown message type 'fly'"),
        ('{"type": "start", "prototype": "Demo"}', "bad_field", "'instruction' is required"),
        (
            '{"type": "start", "prototype": 7, "instruction": "x"}',
            "bad_field",
            "'prototype' must be a str",
        ),
        (
            '{"type": "approve", "id": "x", "approved": "yes"}',
            "bad_field",
            "'approved' must be a bool",
        ),
        ('{"type": "ping", "extra": 1}', "bad_field", "unknown field(s) extra"),
        (
            '{"type": "start", "prototype": "Nope", "instruction": "x"}',
            "unknown_prototype",
            "'Nope'",
        ),
        (b"\x00\x01", "bad_frame", "binary frames"),
        ('{"type": "hello", "token": "t"}', "bad_frame", "already said hello"),
    ],
)
def test_bad_frames_get_an_error_naming_the_problem_and_the_connection_stays(
    frame: str | bytes, code: str, words: str
) -> None:
    async def main() -> None:
        async with running_server(ScriptedModel()) as (_, url, _):
            client, _ = await Client.open(url)
            await client.ws.send(frame)
            error = await client.until("error")
            assert error["code"] == code
            assert words in error["message"]
            await client.send("ping")
            await client.until("pong")  # still connected
            await client.close()

    run(main())


def test_a_frame_over_the_limit_is_refused_with_an_error() -> None:
    async def main() -> None:
        async with running_server(ScriptedModel()) as (_, url, _):
            client, _ = await Client.open(url)
            await client.send("start", prototype="Demo", instruction="x" * 300_000)
            error = await client.until("error")
            assert error["code"] == "too_large"
            await client.close()

    run(main())


def test_several_sessions_run_at_once_on_two_prototypes() -> None:
    library, first_id = make_library("One")
    second_id = library.create("Two", library.load_spec(first_id), "paste").id
    model = GatedModel(
        [
            calls(("patch", RENAME_GO)),
            calls(("patch", RENAME_GO)),
            reply("One done."),
            reply("Two done."),
        ]
    )
    model.hold.add(0)

    async def main() -> None:
        async with running_server(model, library=library) as (server, url, _):
            a, wa = await Client.open(url)
            b, wb = await Client.open(url)
            assert wa["session"] != wb["session"]
            await a.send("start", prototype=first_id, instruction="Rename the button")
            await asyncio.wait_for(model.waiting.wait(), 10)  # a's turn is held open
            await b.send("start", prototype=second_id, instruction="Rename the button")
            await b.until("draft")  # b's turn runs while a's waits
            model.gate.set()
            ends = [await a.until(*TERMINAL), await b.until(*TERMINAL)]
            assert [e["type"] for e in ends] == ["completed", "completed"]
            assert len(server.sessions) == 2
            await a.send("apply")
            await a.until("applied")
            await b.send("apply")
            await b.until("applied")
            await a.close()
            await b.close()

    run(main())
    fresh = Library()
    assert fresh.load_spec(first_id)["root"]["children"][1]["label"] == "Send"
    assert fresh.load_spec(second_id)["root"]["children"][1]["label"] == "Send"


def test_apply_rebases_on_a_change_the_studio_saved_meanwhile() -> None:
    model = ScriptedModel([calls(("patch", RENAME_GO)), reply("Done.")])
    library, entry_id = make_library()

    async def main() -> None:
        async with running_server(model, library=library) as (_, url, _):
            client, _ = await Client.open(url)
            await client.send("start", prototype=entry_id, instruction="Rename the button")
            await client.until(*TERMINAL)
            # Meanwhile the designer renamed the title in the studio window (another process).
            spec = Library().load_spec(entry_id)
            spec["root"]["children"][0]["text"] = "Welcome"
            Library().save_spec(entry_id, spec)
            await client.send("apply")
            await client.until("applied")
            await client.close()

    run(main())
    saved = Library().load_spec(entry_id)
    assert saved["root"]["children"][0]["text"] == "Welcome"  # the studio's edit kept
    assert saved["root"]["children"][1]["label"] == "Send"  # and the agent's draft on top


def test_a_failed_model_is_one_failed_event() -> None:
    from studio.agent.errors import ModelError

    model = ScriptedModel([ModelError("auth", "bad key", status=401)])

    async def main() -> None:
        async with running_server(model) as (_, url, _):
            client, _ = await Client.open(url)
            await client.send("start", prototype="Demo", instruction="Rename the button")
            end = await client.until(*TERMINAL)
            assert end["type"] == "failed"
            assert end["error_class"] == "auth"
            await client.send("ping")
            await client.until("pong")
            assert [t for t in client.types() if t in TERMINAL] == ["failed"]
            await client.close()

    run(main())


def test_the_web_page_is_served_and_other_paths_are_not_found() -> None:
    import urllib.error
    import urllib.request

    async def main() -> None:
        async with running_server(ScriptedModel()) as (_, url, _):
            base = url.replace("ws://", "http://").rsplit("/", 1)[0]
            from studio.concurrency import off_loop

            def get(path: str) -> tuple[int, str, str]:
                try:
                    with urllib.request.urlopen(base + path, timeout=10) as response:
                        return (
                            response.status,
                            response.headers["Content-Type"],
                            response.read().decode(),
                        )
                except urllib.error.HTTPError as exc:
                    return exc.code, exc.headers["Content-Type"], exc.read().decode()

            status, kind, body = await off_loop(get, "/")
            assert status == 200
            assert kind.startswith("text/html")
            assert "Proto Studio" in body
            status, _, body = await off_loop(get, "/secret")
            assert status == 404
            assert "not found" in body

    run(main())
