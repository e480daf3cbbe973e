"""Offer.answer / answer_async / answer_text / answer_text_async on the bundled package: one call
answers a turn; parallel calls keep their order; cut-off calls and unknown tools are answered
with an error and never run; async handlers go only through the async paths. Plain
``asyncio.run``: no pytest plugin, and no timing (ordering is shown by events, not sleeps)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import generated
from generated import AsyncHandlerError, Offer, ToolResult, ToolUse, cut_off_error
from generated._runtime.xml_calls import parse_reply
from replies_data import FORMATS, reply
from test_offer import NATIVE

TEXT_CONTEXT = {"provider_id": "openai", "model_id": "gpt-4.1"}


class Recorder:
    """A sync handler recording the calls it ran (name and params), answering with them."""

    def __init__(self, name: str, ran: list[tuple[str, dict[str, Any]]]) -> None:
        self.name = name
        self.ran = ran

    def execute(self, config: Any, block: ToolUse) -> ToolResult:
        self.ran.append((block.name, dict(block.params)))
        return ToolResult.ok(f"{block.name} ran")


def recording(asynchronous: bool = False) -> tuple[generated.Coordinator, list[tuple[str, dict[str, Any]]]]:
    ran: list[tuple[str, dict[str, Any]]] = []
    coordinator = generated.Coordinator(asynchronous=asynchronous)
    for tool_id in generated.Coordinator.bindings.handlers:
        coordinator.register(Recorder(tool_id, ran))
    return coordinator, ran


def contents(fmt: str, messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(call id, text) of every result in ``messages``, in order."""
    if fmt == "anthropic":
        return [(b["tool_use_id"], b["content"]) for b in messages[0]["content"]]
    if fmt == "openai-chat":
        return [(m["tool_call_id"], m["content"]) for m in messages]
    if fmt == "openai-responses":
        return [(i["call_id"], i["output"]) for i in messages]
    if fmt == "gemini":
        return [(p["functionResponse"]["id"], next(iter(p["functionResponse"]["response"].values())))
                for p in messages[0]["parts"]]
    return [(b["toolResult"]["toolUseId"], b["toolResult"]["content"][0]["text"]) for b in messages[0]["content"]]


CALLS = [
    ("c1", "read_file", {"path": "a.py"}),
    ("c2", "list_files", {"path": "src", "recursive": True}),
    ("c3", "read_file", {"path": "b.py"}),
]


def cut(fmt: str, response: dict[str, Any]) -> dict[str, Any]:
    value = {"anthropic": ("stop_reason", "max_tokens"), "bedrock-converse": ("stopReason", "max_tokens")}
    if fmt in value:
        key, stop = value[fmt]
        response[key] = stop
    elif fmt == "openai-chat":
        response["choices"][0]["finish_reason"] = "length"
    elif fmt == "openai-responses":
        response.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    else:
        response["candidates"][0]["finishReason"] = "MAX_TOKENS"
    return response


# ---- the native path ------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_answer_runs_every_call_and_returns_the_result_messages(fmt: str) -> None:
    offer = Offer("native-next-gen", NATIVE, format=fmt)
    coordinator, ran = recording()
    messages = offer.answer(coordinator, None, reply(fmt, CALLS))
    assert messages is not None
    assert contents(fmt, messages) == [(i, f"{n} ran") for i, n, _ in CALLS]
    assert ran == [(n, a) for _, n, a in CALLS]
    assert offer.answer(coordinator, None, reply(fmt, [])) is None, "a reply without a call"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_call_cut_off_by_the_output_limit_is_answered_and_never_run(fmt: str) -> None:
    offer = Offer("native-next-gen", NATIVE, format=fmt)
    coordinator, ran = recording()
    messages = offer.answer(coordinator, None, cut(fmt, reply(fmt, CALLS)))
    assert messages is not None
    answered = contents(fmt, messages)
    assert ran == [(n, a) for _, n, a in CALLS[:2]], "the complete calls before it run"
    assert answered[2][0] == "c3" and answered[2][1].startswith("The call to tool read_file was not run: the reply ")
    assert "cut off by the output limit" in answered[2][1] and "split the work" in answered[2][1]


def test_cut_off_calls_are_marked_by_read_calls_itself() -> None:
    stop = {"anthropic": "max_tokens", "openai-chat": "length", "openai-responses": "max_output_tokens"}
    for fmt in FORMATS:
        uses = generated.read_calls(cut(fmt, reply(fmt, CALLS)), fmt)
        detail = stop.get(fmt, "MAX_TOKENS" if fmt == "gemini" else "max_tokens")
        assert [u.error for u in uses] == [None, None, cut_off_error("read_file", detail)], fmt
        assert uses[2].params == {} and uses[2].id == "c3"
    # the reply went on after the call: it is complete, stop value or not
    after = cut("anthropic", reply("anthropic", CALLS))
    after["content"].append({"type": "text", "text": "more"})
    assert all(u.error is None for u in generated.read_calls(after, "anthropic"))
    # a Responses item that says it is incomplete, wherever it stands
    items = reply("openai-responses", CALLS)
    items["output"][1]["status"] = "incomplete"
    uses = generated.read_calls(items, "openai-responses")
    assert [u.error is not None for u in uses] == [True, False, False]
    assert "the call's status is incomplete" in str(uses[0].error)


def test_duplicate_ids_and_refused_calls_are_answered_in_place() -> None:
    offer = Offer("native-next-gen", NATIVE, format="anthropic")
    coordinator, ran = recording()
    calls = [("d", "read_file", {"path": "a"}), ("d", "read_file", {"path": "b"}), ("x", "made_up", {})]
    messages = offer.answer(coordinator, None, reply("anthropic", calls))
    assert messages is not None
    answered = contents("anthropic", messages)
    assert ran == [("read_file", {"path": "a"})]
    assert "already has the id 'd'" in answered[1][1] and "Tool made_up is not available" in answered[2][1]


def test_answer_needs_a_native_offer_and_answer_text_a_text_one() -> None:
    coordinator, _ = recording()
    with pytest.raises(ValueError, match="use answer_text"):
        Offer("generic", TEXT_CONTEXT).answer(coordinator, None, {})
    with pytest.raises(ValueError, match=r"use answer$"):
        Offer("native-next-gen", NATIVE, format="anthropic").answer_text(coordinator, None, "")


# ---- async: concurrency, order, timeout ---------------------------------------------------------


class Gate:
    """Async handlers that all wait until every one of them has started: they can only finish
    if the calls run concurrently. ``order`` records the finishing order."""

    def __init__(self, name: str, count: int) -> None:
        self.name = name
        self.count = count
        self.started = 0
        self.all_started = asyncio.Event()
        self.order: list[str] = []

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        self.started += 1
        if self.started == self.count:
            self.all_started.set()
        await self.all_started.wait()
        if block.params["path"] == "a.py":
            await asyncio.sleep(0)  # the first call finishes last
            await asyncio.sleep(0)
        self.order.append(str(block.params["path"]))
        return ToolResult.ok(f"read {block.params['path']}")


def test_answer_async_runs_calls_concurrently_and_keeps_call_order() -> None:
    offer = Offer("native-next-gen", NATIVE, format="openai-chat")
    gate = Gate("read_file", 2)
    coordinator = generated.Coordinator(asynchronous=True)
    coordinator.register(gate)
    calls = [("c1", "read_file", {"path": "a.py"}), ("c2", "read_file", {"path": "b.py"})]
    messages = asyncio.run(offer.answer_async(coordinator, None, reply("openai-chat", calls), timeout=5))
    assert messages is not None
    assert contents("openai-chat", messages) == [("c1", "read a.py"), ("c2", "read b.py")]
    assert gate.order == ["b.py", "a.py"], "they ran together; the answers still follow the calls"


class Never:
    name = "list_files"

    async def execute(self, config: Any, block: ToolUse) -> ToolResult:
        await asyncio.Event().wait()
        return ToolResult.ok("never")


def test_answer_async_times_out_per_call() -> None:
    offer = Offer("native-next-gen", NATIVE, format="anthropic")
    coordinator, _ = recording(asynchronous=True)
    coordinator.register(Never())
    calls = [("c1", "read_file", {"path": "a"}), ("c2", "list_files", {"path": "."})]
    # the sync handler needs far less than the limit; the async one never finishes
    messages = asyncio.run(offer.answer_async(coordinator, None, reply("anthropic", calls), timeout=0.5))
    assert messages is not None
    assert contents("anthropic", messages) == [
        ("c1", "read_file ran"),
        ("c2", "Error executing tool list_files: no result within 0.5 s"),
    ]


def test_sync_entry_points_refuse_an_async_coordinator_before_running_anything() -> None:
    coordinator, ran = recording(asynchronous=True)
    native = Offer("native-next-gen", NATIVE, format="anthropic")
    with pytest.raises(AsyncHandlerError, match=r"Offer\.answer is sync"):
        native.answer(coordinator, None, reply("anthropic", CALLS))
    with pytest.raises(AsyncHandlerError, match=r"Offer\.answer_text is sync"):
        Offer("generic", TEXT_CONTEXT).answer_text(coordinator, None, "<read_file><path>a</path></read_file>")
    assert ran == []
    assert asyncio.run(native.answer_async(coordinator, None, reply("anthropic", CALLS))) is not None
    assert len(ran) == 3


# ---- the text path ----------------------------------------------------------------------------


def test_answer_text_answers_every_call_in_one_user_turn() -> None:
    offer = Offer("generic", TEXT_CONTEXT)
    coordinator, ran = recording()
    text = (
        "Looking.\n<read_file>\n<path>a.py</path>\n</read_file>\n"
        "<search_web>\n<query>docs</query>\n</search_web>\n"
        "<list_files>\n<path>src</path>\n<recursive>true</recursive>\n"
    )
    turn = offer.answer_text(coordinator, None, text)
    assert ran == [("read_file", {"path": "a.py"})], "the unknown tool and the cut-off call never run"
    assert turn is not None
    blocks = turn.split("\n\n")
    assert blocks[0] == "[read_file for 'a.py'] returned:\nread_file ran"
    assert blocks[1].startswith("[search_web] failed:\nTool search_web is not available in this request: no tool")
    assert "Use one of the offered tools: " in blocks[1] and "read_file" in blocks[1]
    assert blocks[2].startswith("[list_files for '…'] failed:\nThe call to tool list_files was not run")
    assert "no closing tag </list_files>" in blocks[2]
    assert offer.answer_text(coordinator, None, "No call here.") is None
    # typed values on the text path: "3" arrives as 3
    offer.answer_text(coordinator, None, "<read_file>\n<path>b</path>\n<start_line>3</start_line>\n</read_file>")
    assert ran[-1] == ("read_file", {"path": "b", "start_line": 3})


def test_answer_text_async_awaits_async_handlers() -> None:
    offer = Offer("generic", TEXT_CONTEXT)
    gate = Gate("read_file", 2)
    coordinator = generated.Coordinator(asynchronous=True)
    coordinator.register(gate)
    text = "<read_file><path>a.py</path></read_file><read_file><path>b.py</path></read_file>"
    turn = asyncio.run(offer.answer_text_async(coordinator, None, text, timeout=5))
    assert turn == "[read_file for 'a.py'] returned:\nread a.py\n\n[read_file for 'b.py'] returned:\nread b.py"
    assert gate.order == ["b.py", "a.py"]


# ---- which tags count as a call of an unknown tool --------------------------------------------

KNOWN = {"read_file": ("path",)}

NOT_CALLS = [
    "<ul>\n<li>one</li>\n<li>two</li>\n</ul>",  # HTML: no underscore in any element name
    "<p>Hello <b>world</b></p>",
    "<thinking_more>prose inside</thinking_more>",  # no parameter
    "<my_tool></my_tool>",
    "<my_tool x='1'><a>1</a></my_tool>",  # an attribute
    "<my_tool>\n<a>1</a>\nand prose\n</my_tool>",
    "<my_tool>\n<a>1</a>\n",  # never closed
    "```xml\n<app_config>\n<log_level>debug</log_level>\n</app_config>\n```",
    "~~~\n<app_config><log_level>debug</log_level></app_config>",  # an open fence runs to the end
    "Write `<my_tool><a>1</a></my_tool>` to call it.",
    "a_b < c_d and <x_y> is a tag name in prose",
    "# Heading\n\n- item with <kbd>Ctrl</kbd>\n\n| a | b |\n|---|---|\n| <br> | 1 |",
]


@pytest.mark.parametrize("text", NOT_CALLS)
def test_prose_markdown_and_html_are_not_calls(text: str) -> None:
    assert parse_reply(text, KNOWN) == []


def test_tags_shaped_like_calls_are_read_in_text_order() -> None:
    text = (
        "<search_web>\n<query> q </query>\n<limit>3</limit>\n</search_web>\n"
        "<read_file><path>a</path></read_file>\n"
        "```\n<not_this><a>1</a></not_this>\n```\n"
        "<run_tests><target>all</target><target>unit</target></run_tests>"
    )
    assert parse_reply(text, KNOWN) == [
        ToolUse("search_web", {"query": "q", "limit": "3"}),
        ToolUse("read_file", {"path": "a"}),
        ToolUse("run_tests", {"target": "unit"}),
    ]
