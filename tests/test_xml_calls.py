"""Tests for generator.runtime.xml_calls (XML tool-call parser, text path)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.runtime.tool_types import ToolUse
from generator.runtime.xml_calls import (
    DEFAULT_CONTENT_PARAMS,
    StreamingParser,
    parse_partial_json_array,
    parse_tool_calls,
)

TOOLS = {
    "read_file": ["path", "start_line", "end_line", "task_progress"],
    "write_to_file": ["path", "content", "task_progress"],
    "replace_in_file": ["path", "diff", "task_progress"],
    "execute_command": ["command", "requires_approval"],
    "apply_patch": ["input"],
    "list_files": ["path", "recursive"],
    "condense": [],
}


def parse(text: str, **kw):
    return parse_tool_calls(text, TOOLS, **kw)


def call(name: str, params: dict) -> str:
    """A call in the Usage format used by the prompts."""
    body = "".join(f"<{k}>{v}</{k}>\n" for k, v in params.items())
    return f"<{name}>\n{body}</{name}>"


# --------------------------------------------------------------------------- unit tests


def test_default_content_params():
    assert {"content", "diff", "input"} <= DEFAULT_CONTENT_PARAMS
    assert "path" not in DEFAULT_CONTENT_PARAMS


def test_basic_example():
    text = (
        "I'll read it.\n<read_file>\n<path>src/main.py</path>\n"
        "<start_line>10</start_line>\n</read_file>"
    )
    assert parse(text) == [ToolUse("read_file", {"path": "src/main.py", "start_line": "10"}, False)]


def test_no_calls():
    assert parse("") == []
    assert parse("just some text < > </read_file> <path>x</path>") == []
    assert parse_tool_calls("<read_file><path>x</path></read_file>", {}) == []


def test_unknown_tool_is_text():
    text = "<delete_file>\n<path>a</path>\n</delete_file>"
    assert parse(text) == []


def test_unknown_param_tags_are_text():
    text = "<read_file>\n<colour>red</colour>\n<path>a</path>\n</read_file>"
    assert parse(text) == [ToolUse("read_file", {"path": "a"}, False)]


def test_other_tools_params_are_not_params():
    # `command` belongs to execute_command, not read_file
    text = "<read_file>\n<command>ls</command>\n<path>a</path>\n</read_file>"
    assert parse(text) == [ToolUse("read_file", {"path": "a"}, False)]


def test_tags_inside_value_are_part_of_it():
    content = "<html>\n  <body><read_file><path>x</path></read_file></body>\n</html>"
    text = call("write_to_file", {"path": "index.html", "content": content})
    assert parse(text) == [ToolUse("write_to_file", {"path": "index.html", "content": content}, False)]


def test_value_with_angle_brackets():
    cmd = "echo '<a>' > out.txt && cat < in.txt | grep '</b>'"
    text = call("execute_command", {"command": cmd, "requires_approval": "false"})
    assert parse(text)[0].params == {"command": cmd, "requires_approval": "false"}


def test_tool_closing_tag_inside_value_does_not_close():
    text = call("execute_command", {"command": "echo '</execute_command>'", "requires_approval": "true"})
    assert parse(text) == [
        ToolUse("execute_command", {"command": "echo '</execute_command>'", "requires_approval": "true"}, False)
    ]
    content = "literal </write_to_file> in a file"
    text = call("write_to_file", {"path": "a", "content": content})
    assert parse(text)[0].params["content"] == content


def test_multiline_value_and_trim():
    text = (
        "<write_to_file>\n<path>  a.py  </path>\n<content>\n\n  def f():\n      return 1\n\n</content>\n"
        "</write_to_file>"
    )
    [block] = parse(text)
    assert block.params == {"path": "a.py", "content": "def f():\n      return 1"}
    assert not block.partial


def test_trim_uses_ecmascript_whitespace():
    # U+FEFF, U+00A0, U+2028, U+3000 are trimmed by JS; U+0085 and U+001F are not.
    text = "<read_file><path>\ufeff\u00a0\u2028\u3000a b\u3000</path></read_file>"
    assert parse(text)[0].params == {"path": "a b"}
    text = "<read_file><path>\x85a\x1f</path></read_file>"
    assert parse(text)[0].params == {"path": "\x85a\x1f"}


def test_empty_value():
    assert parse("<read_file><path></path></read_file>")[0].params == {"path": ""}
    assert parse("<read_file><path>\n \n</path></read_file>")[0].params == {"path": ""}


def test_non_content_param_ends_at_first_closing_tag():
    text = "<read_file>\n<path>a</path>b</path>\n</read_file>"
    assert parse(text) == [ToolUse("read_file", {"path": "a"}, False)]


def test_content_param_may_contain_its_closing_tag():
    content = "<xml>\n<content>nested</content>\n</xml>\nend </content> here"
    text = call("write_to_file", {"path": "t.xml", "content": content, "task_progress": "- [x] write"})
    assert parse(text) == [
        ToolUse("write_to_file", {"path": "t.xml", "content": content, "task_progress": "- [x] write"}, False)
    ]


def test_content_param_last_closing_tag_wins():
    text = "<write_to_file>\n<content>a</content>b</content>\n</write_to_file>"
    assert parse(text)[0].params == {"content": "a</content>b"}


def test_content_param_with_other_params_closing_tags():
    content = "x</path> y </task_progress> z <path>p</path>"
    text = call("write_to_file", {"content": content, "path": "f", "task_progress": "t"})
    assert parse(text)[0].params == {"content": content, "path": "f", "task_progress": "t"}


def test_content_param_well_formed_tail_preferred():
    # a later </content> inside task_progress is not the end of content
    text = (
        "<write_to_file>\n<content>x</content>\n"
        "<task_progress>mentions </content> here</task_progress>\n</write_to_file>"
    )
    assert parse(text)[0].params == {"content": "x", "task_progress": "mentions </content> here"}


def test_diff_and_input_are_content_params():
    diff = "------- SEARCH\n</diff>\n=======\n<diff>\n+++++++ REPLACE"
    assert parse(call("replace_in_file", {"path": "a", "diff": diff}))[0].params["diff"] == diff
    patch = "*** Begin Patch\n+</input>\n*** End Patch"
    assert parse(call("apply_patch", {"input": patch}))[0].params["input"] == patch


def test_content_params_option():
    text = "<write_to_file>\n<content>a</content>b</content>\n</write_to_file>"
    assert parse(text, content_params=frozenset())[0].params == {"content": "a"}
    text = "<read_file>\n<path>a</path>b</path>\n</read_file>"
    assert parse(text, content_params={"path"})[0].params == {"path": "a</path>b"}


def test_ambiguous_content_closes_at_first_possible_end():
    # inherently ambiguous: `</content>` then `</write_to_file>` inside the content.
    text = "<write_to_file>\n<content>a</content>\n</write_to_file>b</content>\n</write_to_file>"
    assert parse(text) == [ToolUse("write_to_file", {"content": "a"}, False)]


def test_multiple_calls_in_order():
    text = (
        "First\n" + call("read_file", {"path": "a"}) + "\nthen\n"
        + call("execute_command", {"command": "ls", "requires_approval": "false"})
        + "\n" + call("read_file", {"path": "b"}) + " done"
    )
    assert parse(text) == [
        ToolUse("read_file", {"path": "a"}, False),
        ToolUse("execute_command", {"command": "ls", "requires_approval": "false"}, False),
        ToolUse("read_file", {"path": "b"}, False),
    ]


def test_tool_without_params():
    assert parse("<condense></condense>") == [ToolUse("condense", {}, False)]
    assert parse("<condense><path>x</path>") == [ToolUse("condense", {}, True)]


def test_repeated_param_last_value():
    text = "<read_file><path>a</path><path>b</path></read_file>"
    assert parse(text)[0].params == {"path": "b"}


def test_unicode():
    text = (
        "Ünïcödé 🙂\n<write_to_file>\n<path>日本/ファイル.txt</path>\n"
        "<content>Привет </content> мир 🙂</content>\n</write_to_file>"
    )
    assert parse(text) == [
        ToolUse("write_to_file", {"path": "日本/ファイル.txt", "content": "Привет </content> мир 🙂"}, False)
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<read_fi", []),
        ("<read_file", []),
        ("<read_file>", [ToolUse("read_file", {}, True)]),
        ("<read_file>\n<pa", [ToolUse("read_file", {}, True)]),
        ("<read_file>\n<path>", [ToolUse("read_file", {"path": ""}, True)]),
        ("<read_file>\n<path>src/ma", [ToolUse("read_file", {"path": "src/ma"}, True)]),
        ("<read_file>\n<path>src/main.py</pa", [ToolUse("read_file", {"path": "src/main.py"}, True)]),
        ("<read_file>\n<path>src/main.py</path>", [ToolUse("read_file", {"path": "src/main.py"}, True)]),
        ("<read_file>\n<path>a</path>\n</rea", [ToolUse("read_file", {"path": "a"}, True)]),
        ("<read_file>\n<path>a</path>\n</read_file", [ToolUse("read_file", {"path": "a"}, True)]),
        ("<read_file>\n<path>a</path>\n</read_file>", [ToolUse("read_file", {"path": "a"}, False)]),
        ("<write_to_file>\n<content>a</con", [ToolUse("write_to_file", {"content": "a"}, True)]),
        ("<write_to_file>\n<content>a</content>", [ToolUse("write_to_file", {"content": "a"}, True)]),
        ("<write_to_file>\n<content>a</content>b", [ToolUse("write_to_file", {"content": "a</content>b"}, True)]),
        (
            "<write_to_file>\n<content>a</content>\n<path>p",
            [ToolUse("write_to_file", {"content": "a", "path": "p"}, True)],
        ),
        (
            "<read_file><path>a</path></read_file>x<read_file><path>b",
            [ToolUse("read_file", {"path": "a"}, False), ToolUse("read_file", {"path": "b"}, True)],
        ),
    ],
)
def test_partial(text, expected):
    assert parse(text) == expected


def test_streaming_parser_char_by_char():
    text = "ok " + call("read_file", {"path": "a"}) + " and " + call(
        "write_to_file", {"path": "b", "content": "x</content>y"}
    )
    parser = StreamingParser(TOOLS)
    seen_complete = 0
    for i, ch in enumerate(text):
        blocks = parser.feed(ch)
        assert blocks == parse(text[: i + 1])
        complete = sum(not b.partial for b in blocks)
        assert complete >= seen_complete
        seen_complete = complete
    assert parser.text == text
    assert parser.blocks == parse(text)
    assert [b.partial for b in parser.blocks] == [False, False]
    parser.reset()
    assert parser.feed("") == [] and parser.text == ""


# --------------------------------------------------------------------------- properties

NAME = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True)
ALPHABET = st.sampled_from(list("ab <>/\n\t=\"'&xé日🙂") + ["\u00a0", "\u2028", "\ufeff"])

JS_WS = (
    "\t\n\v\f\r \u00a0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


@st.composite
def tool_sets(draw):
    names = draw(st.lists(NAME, min_size=1, max_size=3, unique=True))
    pool = draw(st.lists(NAME.filter(lambda n: n not in names), min_size=1, max_size=5, unique=True))
    tools = {n: draw(st.lists(st.sampled_from(pool), min_size=0, max_size=4, unique=True)) for n in names}
    content = frozenset(draw(st.lists(st.sampled_from(pool), max_size=3)))
    return tools, content


def value_strategy(tools, content):
    frags = ["<", ">", "</", "\n", "  ", "<unknown>", "</unknown>"]
    for t, ps in tools.items():
        frags += [f"<{t}>", f"</{t}>"]
        for p in ps:
            frags += [f"<{p}>", f"</{p}>"]
    return st.lists(st.one_of(st.text(ALPHABET, max_size=6), st.sampled_from(frags)), max_size=8).map("".join)


@st.composite
def calls_for(draw, tools, content, name=None):
    """(tool name, params) whose Usage-format text must parse back exactly."""
    if name is None:
        name = draw(st.sampled_from(sorted(tools)))
    params = tools[name]
    chosen = draw(st.permutations(params))[: draw(st.integers(0, len(params)))]
    has_content = any(p in content for p in params)
    close_tool = f"</{name}>"
    values = {}
    for p in chosen:
        own_close = f"</{p}>"

        def ok(v, p=p, own_close=own_close):
            if v != v.strip(JS_WS):
                return False  # values are trimmed
            if any(f"</{q}>" in v for q in params if q in content and q != p):
                return False  # ambiguous: the last closing tag of a content param wins
            if p in content:
                # inherently ambiguous: its closing tag, then the tool's closing tag
                return not (close_tool in v and own_close in v)
            if own_close in v:
                return False  # a non-content value ends at its first closing tag
            # with content params around, a stray </tool> in another value could be reached
            # from a misread content candidate; keep the test unambiguous
            return not (has_content and close_tool in v)

        values[p] = draw(value_strategy(tools, content).filter(ok))
    return name, values


def prose_strategy(tools):
    frags = ["<", ">", "</", "\n"] + [f"</{t}>" for t in tools] + [f"<{t}" for t in tools]
    return (
        st.lists(st.one_of(st.text(ALPHABET, max_size=6), st.sampled_from(frags)), max_size=5)
        .map("".join)
        .filter(lambda s: not any(f"<{t}>" in s for t in tools))
    )


@st.composite
def round_trip_cases(draw):
    tools, content = draw(tool_sets())
    name, values = draw(calls_for(tools, content))
    return tools, content, name, values


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(round_trip_cases())
def test_round_trip(case):
    tools, content, name, values = case
    text = call(name, values)
    assert parse_tool_calls(text, tools, content_params=content) == [ToolUse(name, values, False)]


@st.composite
def streams(draw):
    tools, content = draw(tool_sets())
    n = draw(st.integers(1, 3))
    calls = [draw(calls_for(tools, content)) for _ in range(n)]
    prose = [draw(prose_strategy(tools)) for _ in range(n + 1)]
    text = prose[0]
    opens, ends = [], []
    for (name, values), after in zip(calls, prose[1:], strict=True):
        opens.append(len(text) + len(name) + 2)
        text += call(name, values)
        ends.append(len(text))
        text += after
    return tools, content, calls, text, opens, ends


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(streams())
def test_streaming_prefixes(case):
    tools, content, calls, text, opens, ends = case
    full = parse_tool_calls(text, tools, content_params=content)
    assert full == [ToolUse(n, v, False) for n, v in calls]
    for i in range(len(text) + 1):
        blocks = parse_tool_calls(text[:i], tools, content_params=content)
        done = sum(e <= i for e in ends)
        complete = [b for b in blocks if not b.partial]
        # complete exactly once the full closing tag is in the prefix, and never changes after
        assert complete == full[:done]
        partial = [b for b in blocks if b.partial]
        if done < len(calls) and i >= opens[done]:
            assert len(partial) == 1 and blocks[-1] is partial[0]
            assert partial[0].name == calls[done][0]
            assert set(partial[0].params) <= set(tools[calls[done][0]])
        else:
            assert partial == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(streams(), st.data())
def test_streaming_parser_matches_parse(case, data):
    tools, content, _calls, text, _opens, _ends = case
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
    parser = StreamingParser(tools, content_params=content)
    last = 0
    for cut in cuts + [len(text)]:
        got = parser.feed(text[last:cut])
        last = cut
        assert got == parse_tool_calls(text[:cut], tools, content_params=content)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=10), st.sampled_from(
    ["<read_file>", "</read_file>", "<path>", "</path>", "<content>", "</content>",
     "<write_to_file>", "</write_to_file>", "<", "</", "<read_fi"])), max_size=20).map("".join))
def test_never_raises_on_arbitrary_text(text):
    for i in range(0, len(text) + 1, max(1, len(text) // 10)):
        for block in parse(text[:i]):
            assert block.name in TOOLS
            assert set(block.params) <= set(TOOLS[block.name])


def test_pathological_nesting_does_not_raise():
    text = "<write_to_file><content>" + "</content><content>" * 500 + "x"
    [block] = parse(text)
    assert block.partial
    parse(text + "</content></write_to_file>")


def test_many_content_closing_tags():
    # An XML feed: every entry holds the content parameter's own opening and closing tags.
    # Each one is a candidate end of the content; reading must not re-read the rest of the
    # call from each of them (this used to take seconds; it is linear now).
    content = "<entry><content>hello world</content></entry>\n" * 2000
    text = f"<write_to_file><path>feed.xml</path><content>{content}</content></write_to_file>"
    expected = ToolUse("write_to_file", {"path": "feed.xml", "content": content.strip()}, False)
    assert parse(text) == [expected]
    assert parse(text + "\n" + text) == [expected, expected]
    cut = text[: text.rindex("</content>")]
    assert parse(cut) == [ToolUse("write_to_file", {"path": "feed.xml", "content": content.strip()}, True)]


def test_many_content_closing_tags_streamed():
    content = "<entry><content>hello world</content></entry>\n" * 500
    text = f"<write_to_file><path>feed.xml</path><content>{content}</content></write_to_file>"
    parser = StreamingParser(TOOLS)
    for i in range(0, len(text), 20):
        blocks = parser.feed(text[i : i + 20])
        if i % 2000 == 0:
            assert blocks == parse(text[: i + 20])
    assert blocks == [ToolUse("write_to_file", {"path": "feed.xml", "content": content.strip()}, False)]


# --------------------------------------------------------------------------- partial JSON array


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", []),
        ("garbage", []),
        ('"a"', []),
        ("[", []),
        ("[]", []),
        ('["a", "b', ["a"]),
        ('["a", "b"]', ["a", "b"]),
        ('["a", "b"', ["a", "b"]),
        ('["a", "b",', ["a", "b"]),
        (' \n[ "a" ,\n\t"b" ] trailing', ["a", "b"]),
        (r'["a\"b", "c\\d", "e\nf"]', ['a"b', "c\\d", "e\nf"]),
        (r'["\u00e9\ud83d\ude42"]', ["é🙂"]),
        ('["a", "b\\', ["a"]),
        ('["a", "b\\u00', ["a"]),
        ('["a", "\\ud83d', ["a"]),
        ('["a", 1, "b"]', ["a"]),
        ('["a", "\\q"]', ["a"]),
        ('["日本", "🙂"]', ["日本", "🙂"]),
        ('["example.com", "docs.python.org"]', ["example.com", "docs.python.org"]),
    ],
)
def test_partial_json_array(text, expected):
    assert parse_partial_json_array(text) == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=8), max_size=5), st.booleans(), st.sampled_from([None, 2]))
def test_partial_json_array_prefixes(items, ascii_only, indent):
    text = json.dumps(items, ensure_ascii=ascii_only, indent=indent)
    assert parse_partial_json_array(text) == items
    previous: list = []
    for i in range(len(text) + 1):
        got = parse_partial_json_array(text[:i])
        assert got == items[: len(got)]
        assert len(got) >= len(previous)
        previous = got


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_partial_json_array_never_raises(text):
    assert isinstance(parse_partial_json_array(text), list)
    assert isinstance(parse_partial_json_array("[" + text), list)


def test_streamed_open_value_is_read_on_demand_and_survives_later_feeds_and_reset() -> None:
    """The open value is sliced from the text when read, so a feed does not copy it; values
    handed out earlier keep their text after later feeds and after a reset."""
    from generator.runtime.xml_calls import StreamingParser, parse_tool_calls

    tools = {"write_to_file": ["path", "content"]}
    text = "<write_to_file><path>a.txt</path><content>\nline one\nline two  </con"
    parser = StreamingParser(tools)
    handed_out = [parser.feed(text[i : i + 7]) for i in range(0, len(text), 7)]
    for i, blocks in enumerate(handed_out):
        cut = text[: min((i + 1) * 7, len(text))]
        assert [(b.name, dict(b.params), b.partial) for b in blocks] == [
            (b.name, dict(b.params), b.partial) for b in parse_tool_calls(cut, tools)
        ]
    last = handed_out[-1][-1]
    assert last.params["content"] == "line one\nline two"
    assert list(last.params) == ["path", "content"] and "content" in last.params and len(last.params) == 2
    parser.reset()
    parser.feed("<write_to_file><path>b</path><content>other")
    assert last.params["content"] == "line one\nline two"  # still the first stream's text
    assert handed_out[3][-1].params == parse_tool_calls(text[:28], tools)[-1].params


def test_streamed_open_params_have_dict_keys_and_order_when_a_parameter_repeats() -> None:
    """A repeated parameter keeps its first place and takes the later value, as in a dict."""
    from generator.runtime.xml_calls import StreamingParser, parse_tool_calls

    tools = {"read_file": ["path", "mode"]}
    text = "<read_file><path>a</path><mode>r</mode><path>b"
    streamed = StreamingParser(tools).feed(text)[-1].params
    eager = parse_tool_calls(text, tools)[-1].params
    assert list(streamed) == list(eager) == ["path", "mode"]
    assert len(streamed) == 2 and streamed["path"] == "b" and dict(streamed) == dict(eager)
    assert json.loads(json.dumps(dict(streamed))) == {"path": "b", "mode": "r"}
