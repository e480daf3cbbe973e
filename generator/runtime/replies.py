"""The return path: tool calls read from a provider's reply, and results sent back to it.

Standard library only; copied verbatim into the generated package (``_runtime/replies.py``)
and re-exported by ``providers``. The provider SDKs are never imported: a response is a parsed
JSON body (dict), or an SDK object, read through ``model_dump()`` when it has one and through
attributes otherwise (a key is tried as written, then in snake_case).

What differs per format lives in its record (``formats.FormatRecord``): ``call_path`` and
``call_fields`` say where the calls are and how one is spelled, ``result_envelope`` and
``result_group`` how results go back. One reader (here) and one writer (results.py, whose
``result_message``, ``result_messages`` and ``text_result`` are re-exported here) serve every
format.

Rules of :func:`read_calls`:

* every call of a reply is returned, in reply order, with its call id (``ToolUse.id``);
* ``call_path`` may be entered anywhere along it: a whole response, or an OpenAI choice or
  message, a Gemini candidate or content, a Bedrock output or message; a list is taken as the
  call list itself;
* arguments are decoded once (JSON text or an object); a call whose arguments are not a JSON
  object, are nested deeper than ``MAX_NESTING``, or exceed ``max_argument_chars``
  (default :data:`MAX_ARGUMENT_CHARS`) is returned with ``error`` set and empty ``params``;
  so is a call without a tool name, and a second call reusing an id. Nothing raises;
* a call without an id gets ``toolgen-call-<n>``, ``n`` its position among the reply's calls:
  stable for the same reply and unique within it. Gemini's older responses carry no ids, so
  there this is normal; the result message then leaves ``id`` out and Gemini pairs results
  by name and order. For the other formats a missing id is also an error on that call;
* a call cut off by the output limit is returned with ``error`` set (:func:`cut_off_error`),
  whatever its arguments hold, so it is never half run: the reply's last call when the response
  says it stopped at the limit (``FormatRecord.cut_off``: Anthropic and Bedrock ``max_tokens``
  or ``model_context_window_exceeded``, OpenAI Chat ``length``, Responses ``max_output_tokens``,
  Gemini ``MAX_TOKENS``) and nothing of the reply follows it, and a call whose own status says it
  is incomplete (Responses). The stop value is only seen when the whole response (or an OpenAI
  choice, a Gemini candidate) is given;
* a response of an unknown shape gives no calls and a line in ``problems``.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .formats import CallFields, CutOff, FormatRecord, record
from .results import (
    SYNTHETIC_ID_PREFIX,
    result_message,
    result_messages,
    text_result,
)
from .schema_common import (
    MAX_NESTING,
    _json_type_of,
    json_text_too_deep,
    nesting_depth,
)
from .tool_types import ToolUse, tool_use

__all__ = [
    "MAX_ARGUMENT_CHARS",
    "SYNTHETIC_ID_PREFIX",
    "cut_off_error",
    "decode_arguments",
    "read_calls",
    "result_message",
    "result_messages",
    "text_result",
]

_log = logging.getLogger(__name__)

MAX_ARGUMENT_CHARS = 4_000_000
"""The longest arguments toolgen reads, in characters of JSON text (4 million, about 8 times
what today's largest model output limits allow). Longer arguments make the call an error
before any parsing, so a hostile 10 MB string costs a length check, not a parse."""


_MISSING = object()
_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")


# ---- reading nested values from dicts or SDK objects ---------------------------------------


def _plain(value: Any) -> Any:
    """``value.model_dump()`` for an SDK object that has it (and succeeds), else ``value``."""
    if isinstance(value, (Mapping, list, tuple, str)) or value is None:
        return value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            dumped = dump()
        except Exception:  # an SDK's serializer failing: fall back to attributes
            return value
        if isinstance(dumped, Mapping):
            return dumped
    return value


@functools.cache
def _spellings(key: str) -> tuple[str, ...]:
    """``key`` as the JSON body spells it, then in snake_case as SDK objects do."""
    snake = _SNAKE.sub("_", key).lower()
    return (key,) if snake == key else (key, snake)


def _field(node: Any, key: str | int) -> Any:
    """``node[key]`` for dicts and lists, the attribute for objects; _MISSING if absent."""
    if type(node) is dict and type(key) is str and key in node:
        return node[key]  # a parsed JSON body spells it so: no other spelling to try
    if isinstance(key, int):
        if isinstance(node, (list, tuple)) and -len(node) <= key < len(node):
            return node[key]
        return _MISSING
    for name in _spellings(key):
        if isinstance(node, Mapping):
            if name in node:
                return node[name]
        elif not isinstance(node, (str, bytes, list, tuple)) and node is not None:
            found = getattr(node, name, _MISSING)
            if found is not _MISSING:
                return found
    return _MISSING


def _walk(node: Any, path: Sequence[str | int]) -> Any:
    for key in path:
        if type(node) is dict and type(key) is str and key in node:  # _field, inlined
            node = node[key]
        else:
            node = _field(node, key)
            if node is _MISSING:
                return None
        if node is None:
            return None
    return node


def _indexed(node: Any, path: Sequence[str | int]) -> Any:
    """The value at ``path`` found by plain indexing of dicts and lists (a parsed JSON body),
    or _MISSING at the first step that finds anything else (an SDK object, an absent key, a
    null): the general readers then go over it again, with their other spellings and reports.
    """
    for key in path:
        if type(node) is dict and type(key) is str:
            node = node.get(key, _MISSING)
        elif type(node) is list and type(key) is int and 0 <= key < len(node):
            node = node[key]
        else:
            return _MISSING
        if node is _MISSING:
            return _MISSING
    return node


def _walk_source(
    start: str, path: Sequence[str | int], names: dict[tuple[str | int, ...], str]
) -> tuple[list[str], str]:
    """Lines doing ``_indexed(<start>, path)`` step by step (``return _MISSING`` where it gives
    _MISSING) and the variable holding the value; ``names`` shares the steps already taken.
    """
    lines: list[str] = []
    node = start
    for depth in range(1, len(path) + 1):
        known = names.get(tuple(path[:depth]))
        if known is not None:
            node = known
            continue
        key = path[depth - 1]
        var = names[tuple(path[:depth])] = f"v{len(names)}"
        if type(key) is str:
            lines += [
                f"    if type({node}) is not dict: return _MISSING",
                f"    {var} = {node}.get({key!r}, _MISSING)",
                f"    if {var} is _MISSING: return _MISSING",
            ]
        else:
            lines += [
                f"    if type({node}) is not list or not 0 <= {key!r} < len({node}): return _MISSING",
                f"    {var} = {node}[{key!r}]",
            ]
        node = var
    return lines, node


def _compiled(name: str, params: str, lines: list[str], scope: dict[str, Any]) -> Any:
    """The function ``name(params)`` with body ``lines``, compiled once (as a per-schema
    validator is): the quick readers below run as one function instead of a loop of calls.
    """
    source = "\n".join([f"def {name}({params}):", *lines])
    namespace = dict(scope, _MISSING=_MISSING)
    exec(compile(source, f"<toolgen {name}>", "exec"), namespace)
    return namespace[name]


@functools.cache
def _path_reader(path: tuple[str | int, ...]) -> Callable[[Any], Any]:
    """``_indexed(node, path)`` as one compiled function (tests hold the two equal)."""
    lines, var = _walk_source("node", path, {})
    return _compiled("read_path", "node", [*lines, f"    return {var}"], {})  # type: ignore[no-any-return]


def _spell(path: Sequence[str | int]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(
        "."
    )


def _call_list(response: Any, path: tuple[str | int, ...], problems: list[str]) -> Any:
    """The call list of ``response``, entered at the first step of ``path`` it has."""
    if type(response) is dict:
        found = _path_reader(path)(response)
        if type(found) is list:
            return found
    node = _plain(response)
    if isinstance(node, (list, tuple)):
        return node
    start = next(
        (
            i
            for i, key in enumerate(path)
            if isinstance(key, str) and _field(node, key) is not _MISSING
        ),
        None,
    )
    if start is None:
        problems.append(
            f"unknown response shape: {type(node).__name__} without {_spell(path)}"
        )
        return ()
    for i in range(start, len(path)):
        key = path[i]
        if isinstance(key, int) and not (isinstance(node, (list, tuple)) and node):
            kind = "empty" if isinstance(node, (list, tuple)) else type(node).__name__
            problems.append(f"the response has no {_spell(path[: i + 1])} ({kind})")
            return ()
        node = _field(node, key)
        if node is None or node is _MISSING:
            return ()  # e.g. a text reply: tool_calls is null or absent
    if not isinstance(node, (list, tuple)):
        problems.append(
            f"unknown response shape: {_spell(path)} is a {type(node).__name__}, not a list"
        )
        return ()
    return node


# ---- arguments ----------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# ``json.loads`` with keyword arguments builds a decoder per call; one serves every call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def _loads(text: str) -> Any:
    """``json.loads(text, parse_constant=_reject_constant)``: the same value or the same error.

    Arguments are nearly always one object with nothing around it. Then the decoder's own steps
    (skip blanks, scan from 0, skip blanks, refuse extra data) reduce to one scan from 0 that
    ends at the end of the text, so the scanner is called directly. Any other text, and text
    the scanner stops on (StopIteration, which ``decode`` turns into its error), takes
    ``decode`` (after ``json.loads``' own BOM check); the scanner's own errors are decode's.
    """
    if text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            end = -1
        if end == len(text):
            return value
    if text.startswith("\ufeff"):
        return json.loads(text, parse_constant=_reject_constant)
    return _DECODER.decode(text)


def _size_past(value: Any, limit: int) -> bool:
    """Whether the strings and scalars in ``value`` add up to more than ``limit`` characters."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            total += 2 + sum(len(str(k)) + 4 for k in item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            total += 2 + len(item)
            stack.extend(item)
        elif isinstance(item, str):
            total += len(item) + 2
        else:
            total += 4
        if total > limit:
            return True
    return False


_TOO_DEEP = f"its arguments are nested more than {MAX_NESTING} levels deep"


def _not_json(exc: ValueError) -> str:
    detail = getattr(exc, "msg", str(exc))
    where = (
        f" at line {exc.lineno} column {exc.colno}"
        if isinstance(exc, json.JSONDecodeError)
        else ""
    )
    return f"its arguments are not valid JSON ({detail}{where})"


def decode_arguments(
    value: Any, max_chars: int = MAX_ARGUMENT_CHARS
) -> tuple[dict[str, Any], str | None]:
    """A call's arguments as a dict, or ``({}, reason)`` when they cannot be taken.

    JSON text is decoded (empty text means no arguments); an object is taken as it is. Both are
    held to ``max_chars`` characters and ``MAX_NESTING`` levels; NaN and Infinity are refused.
    """
    if value is None:
        return {}, None
    if isinstance(value, str):
        if len(value) > max_chars:
            return {}, (
                f"its arguments are {len(value)} characters long; at most {max_chars} "
                "are read"
            )
        # ``not value.strip()``, without the copy
        if not value or value.isspace():
            return {}, None
        if value[:1] == "{":
            # One object, nearly always: scanned first (_loads' own first step), and held to
            # MAX_NESTING after. The C scanner bounds its own recursion; text it stops on takes
            # the general steps below, which check the nesting before anything is parsed.
            try:
                decoded, end = _SCAN(value, 0)
            except (StopIteration, RecursionError):  # not one object, or too deep for C
                end = -1
            except ValueError as exc:
                if json_text_too_deep(value):
                    return {}, _TOO_DEEP
                return {}, _not_json(exc)
            if end == len(value) and type(decoded) is dict:
                for item in decoded.values():  # a flat object is 1 level deep
                    if type(item) is dict or type(item) is list:
                        if json_text_too_deep(value):  # as deep as its text
                            return {}, _TOO_DEEP
                        break
                return decoded, None  # made by the decoder just now: no copy needed
        if json_text_too_deep(value):
            return {}, _TOO_DEEP
        try:
            value = _loads(value)
            if type(value) is dict:
                return value, None
        except ValueError as exc:
            return {}, _not_json(exc)
    elif isinstance(value, Mapping):
        if nesting_depth(value) > MAX_NESTING:
            return {}, _TOO_DEEP
        if _size_past(value, max_chars):
            return {}, f"its arguments are longer than {max_chars} characters"
    if not isinstance(value, Mapping):
        kind = _json_type_of(value) or type(value).__name__
        return {}, f"its arguments are a JSON {kind}, not an object"
    return dict(value), None


def _refusal(name: str, reason: str) -> str:
    """The error text for the model about a call that was not run."""
    who = f"tool {name}" if name else "a tool without a name"
    return f"The call to {who} was not run: {reason}. Send it again, corrected."


def cut_off_error(name: str, detail: str) -> str:
    """The error text for the model about a call the output limit cut off (``detail``: how the
    reply showed it); the call was not run, so it must come again, whole."""
    who = f"tool {name}" if name else "a tool without a name"
    return (
        f"The call to {who} was not run: the reply was cut off by the output limit "
        f"({detail}) before the call was complete. Send it again in full; if it is long, "
        "split the work into smaller calls."
    )


def _stop_value(response: Any, cut: CutOff) -> str | None:
    """The response's stop value when it is one of ``cut.values`` (the output limit), else None."""
    value = _path_reader(cut.path)(response) if type(response) is dict else _MISSING
    if value is not _MISSING:
        for wanted in cut.values:
            if value == wanted:
                return wanted
        return None
    node = _plain(response)
    if isinstance(node, (list, tuple)):
        return None
    start = next(
        (
            i
            for i, key in enumerate(cut.path)
            if isinstance(key, str) and _field(node, key) is not _MISSING
        ),
        None,
    )
    if start is None:
        return None
    value = _walk(node, cut.path[start:])
    # a str-valued enum (an SDK's) compares equal; the record's own spelling is reported
    return next((v for v in cut.values if value == v), None)


def _cut_detail(item: Any, cut: CutOff | None, stop: str | None, last: bool) -> str:
    """How the reply shows that the call in ``item`` was cut off, or "" when it was not."""
    if cut is None:
        return ""
    if cut.call_status:
        status = _walk(item, cut.call_status)
        found = next((v for v in cut.call_status_values if status == v), None)
        if found is not None:
            return f"the call's status is {found}"
    return stop if stop is not None and last else ""


# ---- reading calls ------------------------------------------------------------------------


def _calls_record(format: str) -> tuple[FormatRecord, CallFields]:
    rec = record(format)
    if rec.call_fields is None:
        raise ValueError(f"format {format!r} has no native tool calls")
    return rec, rec.call_fields


def _make_use(
    name: Any,
    call_id: Any,
    arguments: Any,
    ids_optional: bool,
    position: int,
    max_chars: int,
) -> ToolUse:
    """A complete ToolUse from a call's raw fields; ``error`` set when it cannot be run."""
    name = name if isinstance(name, str) else ""
    reason: str | None = None
    if not isinstance(call_id, str) or not call_id:
        call_id = f"{SYNTHETIC_ID_PREFIX}{position}"
        if not ids_optional:
            reason = "the reply gave it no call id"
    if not name:
        reason = "the reply names no tool"
    params: dict[str, Any] = {}
    if reason is None:
        params, reason = decode_arguments(arguments, max_chars)
    if reason is not None:
        return tool_use(name, {}, False, call_id, _refusal(name, reason))
    return tool_use(name, params, False, call_id, None)


def _mark_duplicate(use: ToolUse, seen: set[str]) -> ToolUse:
    """``use`` as an error when an earlier call of the reply had the same id."""
    if use.id not in seen:
        seen.add(use.id)
        return use
    if use.error is not None:
        return use
    reason = f"another call of the reply already has the id {use.id!r}"
    return ToolUse(use.name, {}, id=use.id, error=_refusal(use.name, reason))


def _as_call(item: Any, fields: CallFields) -> Any:
    """The call ``item`` holds, or None when it is not a call (text, reasoning, ...)."""
    if fields.wrapper is None and fields.marker is None:
        return item
    if fields.wrapper is not None:
        call = _field(item, fields.wrapper)
        return None if call is _MISSING else call
    if fields.marker is not None:
        key, wanted = fields.marker
        if _field(item, key) != wanted:
            return None
    return item


def _read_call(
    item: Any, fields: CallFields, position: int, max_chars: int
) -> ToolUse | None:
    """The call ``item`` holds as a ToolUse (numbered ``position``), or None for no call."""
    call = _as_call(item, fields)
    if call is None:
        return None
    return _make_use(
        _walk(call, fields.name),
        _walk(call, fields.id),
        _walk(call, fields.arguments),
        fields.ids_optional,
        position,
        max_chars,
    )


def _plain_call(item: Any, fields: CallFields, position: int, max_chars: int) -> Any:
    """The call in ``item`` read the quick way, or _MISSING to read it with ``_read_call``.

    Almost every element of a parsed JSON body is a dict with the call's name and id as
    non-empty texts at the record's keys: such a call is read with plain indexing. Anything
    else (an SDK object, a missing or odd field, a text block) takes ``_read_call``, which
    knows every spelling and says what is wrong; both give equal ToolUses for what both read.
    """
    return _call_reader(fields)(item, max_chars)


@functools.cache
def _call_reader(fields: CallFields) -> Callable[[Any, int], Any]:
    """``_plain_call`` for one format's fields, compiled once: the element's type, its wrapper
    or marker, the name, id and arguments read by plain indexing (``_indexed``, step by step),
    then the arguments decoded. Every field missing or odd gives _MISSING, as it always did.
    """
    lines = ["    if type(item) is not dict: return _MISSING"]
    if fields.wrapper is not None:
        lines += [
            f"    call = item.get({fields.wrapper!r})",
            "    if type(call) is not dict: return _MISSING",
        ]
    else:
        lines.append("    call = item")
        if fields.marker is not None:
            key, wanted = fields.marker
            lines.append(f"    if item.get({key!r}) != {wanted!r}: return _MISSING")
    names: dict[tuple[str | int, ...], str] = {}
    found: list[str] = []
    for path in (fields.name, fields.id, fields.arguments):
        walk, var = _walk_source("call", path, names)
        lines += walk
        found.append(var)
    name, call_id, arguments = found
    lines += [
        f"    if type({name}) is not str or not {name} or type({call_id}) is not str or not {call_id}:",
        "        return _MISSING",
        f"    params, reason = decode_arguments({arguments}, max_chars)",
        "    if reason is not None:",
        f"        return tool_use({name}, {{}}, False, {call_id}, _refusal({name}, reason))",
        f"    return tool_use({name}, params, False, {call_id}, None)",
    ]
    scope = {
        "decode_arguments": decode_arguments,
        "tool_use": tool_use,
        "_refusal": _refusal,
    }
    return _compiled("read_call", "item, max_chars", lines, scope)  # type: ignore[no-any-return]


def read_calls(
    response: Any,
    format: str,
    *,
    problems: list[str] | None = None,
    max_argument_chars: int = MAX_ARGUMENT_CHARS,
) -> list[ToolUse]:
    """Every tool call in a provider ``response`` of ``format``, in order; never raises.

    ``response`` is the parsed JSON body or the SDK's response object (or a part of it along
    the record's ``call_path``). A call that cannot be run comes back with ``error`` set: answer
    it with ``ToolResult.error(use.error)``. An unrecognised response gives ``[]``, and a line
    in ``problems`` when it is a list. Raises ValueError only for an unknown ``format``.
    """
    rec, fields = _calls_record(format)
    quick = _call_reader(fields)
    found: list[str] = []
    # a hostile object (properties that raise) is reported, never raised
    try:
        items = _call_list(response, rec.call_path, found)
    except Exception as exc:
        found.append(f"the response could not be read: {type(exc).__name__}: {exc}")
        items = ()
    try:
        stop = None if rec.cut_off is None else _stop_value(response, rec.cut_off)
    except Exception as exc:
        found.append(f"the stop reason could not be read: {type(exc).__name__}: {exc}")
        stop = None
    uses: list[ToolUse] = []
    seen: set[str] = set()
    cut_off = rec.cut_off
    # Calls are cut off only by a stop at the limit or by their own status (_cut_detail).
    may_cut = stop is not None or (cut_off is not None and bool(cut_off.call_status))
    last = len(items) - 1
    for number, item in enumerate(items):
        try:
            use = quick(item, max_argument_chars)  # _plain_call
            if use is _MISSING:
                use = _read_call(item, fields, len(uses), max_argument_chars)
            cut = (
                _cut_detail(item, cut_off, stop, number == last)
                if may_cut and use is not None
                else ""
            )
        except Exception as exc:  # one hostile element costs that element only
            found.append(f"element {number} not read: {type(exc).__name__}: {exc}")
            continue
        if use is not None:
            if use.id in seen:
                use = _mark_duplicate(use, seen)
            else:
                seen.add(use.id)
            if cut:
                use = ToolUse(
                    use.name, {}, id=use.id, error=cut_off_error(use.name, cut)
                )
            uses.append(use)
    for line in found:
        _log.warning("read_calls(%s): %s", format, line)
    if problems is not None:
        problems.extend(found)
    return uses
