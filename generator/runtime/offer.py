"""What one request offered the model, used both to send the tools and to answer the calls.

Standard library only. An ``Offer`` is built once per request from a family, a context, a format
(None for the text path) and the request's run-time tools (MCP servers, subagent configs; a
server list that stays the same across requests can be prepared once as ``McpServers``). It
builds what is sent (``tools()`` for a native format, ``prompt_section()`` for the text path)
and remembers the names that went out, so dispatch cannot disagree with it:
``execute(coordinator, config, use)`` refuses a call to any tool that was not sent (a static
tool turned off by its requirements, an MCP tool of a disabled or unknown server, a subagent
that is not configured, a name the model made up) with one tool-error result, then checks the
arguments against exactly the parameters schema that was sent for that tool in the request's
format (sent_schema.py; on the text path, the tool's JSON Schema with text coercion) and hands
the handler typed values. Nothing raises for the model's mistakes. ``Coordinator.execute``
called directly stays unchecked, for hosts that need the old behaviour.

One call answers a whole turn: ``answer(coordinator, config, response)`` (native formats: the
response as the SDK returns it) and ``answer_text(coordinator, config, text)`` (the text path:
the reply's text) read every call, answer each as ``execute`` does, and return what goes into
the next request (see their docstrings); ``answer_async`` and ``answer_text_async`` run the
calls concurrently, async handlers awaited. A call the output limit cut off, and on the text
path a tag calling a tool that does not exist, are answered with an error and never run.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .catalog import Catalog, Variant
from .dynamic_tools import parse_mcp_name
from .native import fast_copy, parameters_schema
from .offer_plan import McpServers, Plan, plan_key, servers_given
from .prompt import TextPath
from .replies import cut_off_error, read_calls, result_messages, text_result
from .sent_schema import ArgumentsChecker, sent_checker, sent_parameters
from .tool_types import ToolResult, ToolUse, tool_use
from .validation import arguments_checker

__all__ = ["McpServers", "Offer"]

_LISTED = 40
"""At most this many offered names are listed in a refusal."""

# Text-path checkers of static variants, per (variant object, names of the parameters sent). The catalog's
# variants live as long as the package, and the entry keeps its variant, so ids stay unique.
_STATIC_CHECKERS: dict[
    tuple[int, tuple[str, ...]], tuple[Variant, ArgumentsChecker]
] = {}


def _input_schema(variant: Variant, params: Sequence[Mapping[str, Any]]) -> Any:
    """The text path's schema: an MCP tool's own, else the parameters' (as every format's derives).

    A top-level union without a ``type`` of its own gets its branches' types, so that text
    coercion reads its value as they say (``"[1]"`` for a union of arrays and objects).
    """
    schema = variant.get("input_schema")
    if schema is None:
        # The catalog holds lists as tuples: the checker reads JSON shapes (lists, dicts).
        schema = parameters_schema(
            [{**p, "instruction": "", "schema": fast_copy(p["schema"])} for p in params]
        )
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return schema
    typed = {name: _with_branch_types(prop) for name, prop in properties.items()}
    return {**schema, "properties": typed}


def _with_branch_types(prop: Any) -> Any:
    if not isinstance(prop, Mapping) or "type" in prop:
        return prop
    branches = prop.get("anyOf", prop.get("oneOf"))
    types: list[str] = []
    for branch in branches if isinstance(branches, list) else ():
        declared = branch.get("type") if isinstance(branch, Mapping) else None
        if declared is None:
            return prop  # a branch of any type: nothing to coerce to
        for name in declared if isinstance(declared, list) else [declared]:
            if isinstance(name, str) and name not in types:
                types.append(name)
    return {**prop, "type": types} if types else prop


# Per catalog variant: whether its parameter schemas hold no placeholder, so that what it sends
# in a format depends only on the parameters sent (the variant is kept: its id stays its own).
_FIXED: dict[int, tuple[Variant, bool]] = {}


def _fixed_schema(variant: Variant) -> bool:
    known = _FIXED.get(id(variant))
    if known is None or known[0] is not variant:
        text = json.dumps([p["schema"] for p in variant["parameters"]], default=repr)
        known = _FIXED[id(variant)] = (variant, "{{" not in text)
    return known[1]


class Offer:
    """The tools offered in one request; see the module docstring.

    ``formats`` maps each native format name to its generated module (``tools()``); the
    generated offer.py passes the package's own. Raises NativeToolsUnavailable (from the format
    module) when the family or context does not use native tools: use the text path then.
    """

    def __init__(
        self,
        catalog: Catalog,
        text_path: TextPath,
        formats: Mapping[str, Any],
        family: Any,
        context: Any = None,
        *,
        format: str | None = None,
        mcp_servers: Sequence[Mapping[str, Any]] | McpServers = (),
        subagents: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        self.catalog = catalog
        self.text_path = text_path
        self.family = catalog.known_family(family)
        self.context = catalog.as_context(context)
        self.format = format
        servers, servers_key = servers_given(mcp_servers)
        key = plan_key(
            formats,
            text_path,
            self.family,
            self.context,
            format,
            servers,
            subagents,
            servers_key,
        )
        plan = catalog.offers.get(key) if key is not None else None
        self._tools: list[dict[str, Any]] | None = None
        if plan is None:
            plan = Plan(
                catalog, text_path, formats, self.family, self.context, format,
                servers, subagents,
            )  # fmt: skip
            self._tools = plan.first_tools()
            if key is not None:
                catalog.offers.put(key, plan)
        self._plan = plan
        self.extra_variants: tuple[Variant, ...] = plan.extra
        """The run-time tools of this request (shared with other Offers: read only)."""
        self.skipped: list[dict[str, Any]] = (
            [dict(r) for r in plan.skipped] if plan.skipped else []
        )
        """Run-time tools left out of this request, with reasons (``{server, uid, tool, name, reason}``)."""
        self.variants: dict[str, Variant] = dict(plan.variants)
        """The offered tools by name, in the order they were sent."""
        self._servers_given = tuple(servers)
        self._servers: dict[str, Mapping[str, Any]] | None = None

    # ---- sending -------------------------------------------------------------------------

    def tools(self) -> list[dict[str, Any]]:
        """The request's native ``tools`` list (empty on the text path)."""
        if self._tools is None:  # made on first use: answering needs only the plan
            self._tools = self._plan.fresh_tools()
        return list(self._tools)

    def prompt_section(self) -> str:
        """The text path's '# Tools' section (empty for a native format)."""
        return self._plan.section

    def names(self) -> tuple[str, ...]:
        """The names of the offered tools, in the order they were sent."""
        return tuple(self.variants)

    @property
    def degraded(self) -> list[dict[str, Any]]:
        """Offered run-time tools whose schema lost what the check cannot enforce (a pattern
        that is not ECMA-262, ...), one ``{server, uid, tool, name, reason}`` each."""
        return [
            dict(record)
            for v in self.extra_variants
            if v["name"] in self.variants
            for record in v.get("degraded", ())
        ]

    # ---- dispatching ---------------------------------------------------------------------

    def parse_calls(self, text: str) -> list[ToolUse]:
        """Tool calls in a (possibly still streaming) text-path reply.

        Every tool of the family is read, offered or not, so that a call to a tool this request
        did not offer reaches ``execute`` and is refused there instead of passing as prose.
        """
        return self.text_path.parse_calls(text, self.family, self.extra_variants)

    def refusal(self, name: str) -> str | None:
        """Why a call to ``name`` is refused, or None when ``name`` was offered."""
        if name in self.variants:
            return None
        separator = str(self.catalog.mcp.get("separator") or "")
        names = list(self.variants)
        offered = ", ".join(names[:_LISTED]) or "none"
        if len(names) > _LISTED:  # many MCP tools: keep the error short
            offered += f" and {len(names) - _LISTED} more"
        prefix = str(self.catalog.subagents.get("name_prefix") or "")
        parsed = parse_mcp_name(name, separator) if separator else None
        if parsed is not None:
            uid, tool = parsed
            if self._servers is None:
                self._servers = {
                    str(s.get("uid")): s
                    for s in self._servers_given
                    if isinstance(s, Mapping)
                }
            server = self._servers.get(uid)
            if server is None:
                reason = f"there is no MCP server {uid!r} in this request"
            elif server.get("disabled"):
                reason = f"the MCP server {uid!r} is disabled"
            else:
                left = [r["reason"] for r in self.skipped if r.get("name") == name]
                reason = (
                    f"toolgen left the tool {tool!r} of the MCP server {uid!r} out of "
                    f"this request ({left[0]})"
                    if left
                    else f"the MCP server {uid!r} offers no tool {tool!r} here"
                )
        elif prefix and name.startswith(prefix):
            reason = "no subagent of that name is configured for this request"
        elif any(v["name"] == name for v in self.catalog.variants[self.family]):
            reason = "it is turned off in the current context"
        else:
            reason = "no tool of that name exists"
        return (
            f"Tool {name} is not available in this request: {reason}. "
            f"Use one of the offered tools: {offered}."
        )

    def check(self, use: ToolUse) -> tuple[dict[str, Any], list[str]]:
        """``use``'s arguments typed by the schema that was sent, and every problem found."""
        variant = self.variants[use.name]
        checker = self._plan.checkers.get(use.name) or self._checker(variant)
        return checker(use.params, self.format is None)

    def execute(self, coordinator: Any, config: Any, use: ToolUse) -> ToolResult | None:
        """Answer one call: refuse it, report its argument problems, or run its handler.

        A partial block of an offered tool goes to the handler's preview unchecked (its values
        are still growing); a partial block of any other tool is dropped. Raises nothing but
        ``AsyncHandlerError`` (an async handler on this sync path: the developer's mistake).
        """
        answered, answer, run = self._screen(use)
        if answered:
            return answer
        result: ToolResult | None = coordinator.execute(config, run)
        return result

    async def execute_async(
        self,
        coordinator: Any,
        config: Any,
        use: ToolUse,
        *,
        timeout: float | None = None,
    ) -> ToolResult | None:
        """``execute`` through ``coordinator.execute_async``: same checks, async handlers awaited."""
        answered, answer, run = self._screen(use)
        if answered:
            return answer
        result: ToolResult | None = await coordinator.execute_async(
            config, run, timeout=timeout
        )
        return result

    # ---- answering a whole turn ----------------------------------------------------------

    def read_reply(self, text: str) -> list[ToolUse]:
        """The calls of a finished text-path reply, in order, as ``answer_text`` answers them.

        A call whose closing tag never came (the reply was cut off inside it) has ``error`` set
        and is never run; a tag that calls a tool that does not exist (see _runtime/xml_calls.py
        for the precise rule) is returned by its name and refused by ``execute``.
        """
        uses = self.text_path.parse_reply(text, self.family, self.extra_variants)
        return [
            (
                ToolUse(
                    use.name,
                    {},
                    error=cut_off_error(use.name, f"no closing tag </{use.name}>"),
                )
                if use.partial
                else use
            )
            for use in uses
        ]

    def answer(
        self, coordinator: Any, config: Any, response: Any
    ) -> list[dict[str, Any]] | None:
        """Answer every call of a native ``response``; None when the reply has no call.

        ``response`` is the provider's response as the SDK returns it (or its parsed JSON
        body). The result is ``result_messages`` of the format, in call order: append it to the
        conversation after the assistant's turn. Each call is answered as ``execute`` does, in
        order; a call cut off by the output limit, a reused id or unreadable arguments get an
        error (see _runtime/replies.py). Raises ``AsyncHandlerError`` before running anything
        when ``coordinator`` is bound for async (use ``answer_async``).
        """
        fmt = self._native("answer")
        _check_sync(coordinator, "Offer.answer")
        uses = read_calls(response, fmt)
        if not uses:
            return None
        answers = [(u, _given(u, self.execute(coordinator, config, u))) for u in uses]
        return result_messages(answers, fmt)

    async def answer_async(
        self,
        coordinator: Any,
        config: Any,
        response: Any,
        *,
        timeout: float | None = None,
    ) -> list[dict[str, Any]] | None:
        """``answer`` with the calls run concurrently (results still in call order) through
        ``coordinator.execute_async``: async handlers awaited, ``timeout`` seconds per call.
        """
        fmt = self._native("answer_async")
        uses = read_calls(response, fmt)
        if not uses:
            return None
        results = await self._gather(coordinator, config, uses, timeout)
        return result_messages(list(zip(uses, results, strict=True)), fmt)

    def answer_text(self, coordinator: Any, config: Any, text: str) -> str | None:
        """Answer every call of a finished text-path reply; None when it has no call.

        The result is the text of the next user turn: one block per call in call order
        (``text_result``: the call's label, whether it returned, failed or was refused, then the
        output), separated by a blank line. A string fits every SDK: wrap it as that SDK's user
        message. A cut-off call and a call of a tool that does not exist are answered with an
        error (``read_reply``). Raises ``AsyncHandlerError`` as ``answer`` does.
        """
        self._text_path("answer_text")
        _check_sync(coordinator, "Offer.answer_text")
        uses = self.read_reply(text)
        if not uses:
            return None
        results = [_given(u, self.execute(coordinator, config, u)) for u in uses]
        return _text_turn(coordinator, uses, results)

    async def answer_text_async(
        self,
        coordinator: Any,
        config: Any,
        text: str,
        *,
        timeout: float | None = None,
    ) -> str | None:
        """``answer_text`` with the calls run concurrently, as ``answer_async`` runs them."""
        self._text_path("answer_text_async")
        uses = self.read_reply(text)
        if not uses:
            return None
        results = await self._gather(coordinator, config, uses, timeout)
        return _text_turn(coordinator, uses, results)

    async def _gather(
        self,
        coordinator: Any,
        config: Any,
        uses: Sequence[ToolUse],
        timeout: float | None,
    ) -> list[ToolResult]:
        results = await asyncio.gather(
            *(self.execute_async(coordinator, config, u, timeout=timeout) for u in uses)
        )
        return [_given(u, r) for u, r in zip(uses, results, strict=True)]

    def _native(self, method: str) -> str:
        if self.format is None:
            raise ValueError(
                f"Offer.{method} answers a native format's response; this offer is for the "
                "text path (format=None): use answer_text"
            )
        return self.format

    def _text_path(self, method: str) -> None:
        if self.format is not None:
            raise ValueError(
                f"Offer.{method} answers a text-path reply; this offer is for the native "
                f"format {self.format!r}: use answer"
            )

    def _screen(self, use: ToolUse) -> tuple[bool, ToolResult | None, ToolUse]:
        """``(True, answer, use)`` for a call answered here, else ``(False, None, call to run)``."""
        if use.error is not None:
            return True, None if use.partial else ToolResult.error(use.error), use
        refused = None if use.name in self.variants else self.refusal(use.name)
        if refused is not None:
            return True, None if use.partial else ToolResult.error(refused), use
        if use.partial:
            return False, None, use
        try:  # self.check(use), inlined
            name = use.name
            checker = self._plan.checkers.get(name) or self._checker(
                self.variants[name]
            )
            params, problems = checker(use.params, self.format is None)
        except (
            Exception
        ) as exc:  # a schema the checker cannot read must not cost the call
            return (
                True,
                ToolResult.error(
                    f"Could not check the arguments of tool {use.name}: {type(exc).__name__}: {exc}"
                ),
                use,
            )
        if problems:
            lines = "- " + "\n- ".join(problems)  # one "- <problem>" line each
            return (
                True,
                ToolResult.error(
                    f"Invalid arguments for tool {use.name}:\n{lines}\n"
                    "Please retry the call with every problem fixed."
                ),
                use,
            )
        if type(use) is ToolUse:  # what replace() makes, without its generic field walk
            return (
                False,
                None,
                tool_use(use.name, params, use.partial, use.id, use.error),
            )
        return False, None, replace(use, params=params)

    def _checker(self, variant: Variant) -> ArgumentsChecker:
        checkers = self._plan.checkers
        name = variant["name"]
        found = checkers.get(name)
        if found is None:
            text = self.format is None
            found = self._text_checker(variant) if text else self._sent_checker(variant)
            checkers[name] = found
        return found

    def _sent_checker(self, variant: Variant) -> ArgumentsChecker:
        """The check of the parameters schema this request sent for ``variant``."""
        fmt = str(self.format)
        schema, dialect = sent_parameters(fmt, self._plan.entries.get(variant["name"]))
        own = variant.get("input_schema")
        identity = None
        if own is None:
            required = frozenset(
                p["name"] for p in variant["parameters"] if p["required"]
            )
            properties = (
                schema.get("properties") if isinstance(schema, Mapping) else None
            )
            if variant.get("spec") is not None and _fixed_schema(variant):
                names = tuple(properties) if isinstance(properties, Mapping) else ()
                identity = (variant, (fmt, dialect, names))
        else:
            listed = own.get("required") if isinstance(own, Mapping) else None
            required = frozenset(
                r
                for r in (listed if isinstance(listed, list) else ())
                if isinstance(r, str)
            )
        return sent_checker(schema, dialect, required, identity)

    def _text_checker(self, variant: Variant) -> ArgumentsChecker:
        """The text path's check: the tool's JSON Schema, with text coercion."""
        params = self.catalog.visible_parameters(
            variant, self.context, self._plan.enabled_ids
        )
        if variant.get("spec") is None:
            return arguments_checker(_input_schema(variant, params))
        key = (id(variant), tuple(p["name"] for p in params))
        cached = _STATIC_CHECKERS.get(key)
        if cached is None or cached[0] is not variant:
            cached = (variant, arguments_checker(_input_schema(variant, params)))
            _STATIC_CHECKERS[key] = cached
        return cached[1]


def _check_sync(coordinator: Any, entry: str) -> None:
    """A coordinator bound for async refuses a sync entry point before anything runs."""
    check = getattr(coordinator, "check_sync", None)
    if callable(check):
        check(entry)


def _given(use: ToolUse, result: Any) -> ToolResult:
    """``result``, or an error result when a handler returned something else (None, ...)."""
    if isinstance(result, ToolResult):
        return result
    return ToolResult.error(
        f"Error executing tool {use.name}: its handler returned "
        f"{type(result).__name__}, not a ToolResult"
    )


def _text_turn(
    coordinator: Any, uses: Sequence[ToolUse], results: Sequence[ToolResult]
) -> str:
    label = getattr(coordinator, "label", None)
    blocks = [
        text_result(u, r, label(u) if callable(label) else None)
        for u, r in zip(uses, results, strict=True)
    ]
    return "\n\n".join(blocks)
