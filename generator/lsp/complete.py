"""Completion: meta-schema keys at the cursor's YAML path, and the names a value may refer to.

Keys come from the meta-schema the file follows (``$ref``s followed, every branch of a
``oneOf``/``anyOf``/``allOf`` offered), minus the keys the mapping already has. Values: shared
parameters after ``use:``, the tool's variants after ``extends:``, families, tool ids, formats,
context fields after ``field:``, placeholder names inside ``{{``, handler classes bound elsewhere,
and any ``enum`` the meta-schema gives. Names come from the latest check's files and from the
file names in tools/ and variants/, so completion works while files are broken.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import cache
from typing import Any

from lsprotocol import types

from ..model import FORMATS
from ..specfiles import spec_files
from ..validate import SCHEMA_FILES, schema_text
from .session import Session
from .text import PathKey, line_of, placeholder_at

_KIND_SCHEMA = {"project": "project", "parameters": "parameters", "tool": "tool", "family": "family"}


@cache
def _schemas() -> dict[str, Any]:
    return {f"{kind}.schema.json": json.loads(schema_text(kind)) for kind in SCHEMA_FILES}


def _resolve(schema: Any, document: str) -> tuple[Any, str]:
    """Follow ``$ref`` (to another meta-schema file or inside one) until a plain schema."""
    for _ in range(20):
        if not isinstance(schema, dict) or "$ref" not in schema:
            return schema, document
        target, _, pointer = str(schema["$ref"]).partition("#")
        document = target or document
        node: Any = _schemas()[document]
        for part in pointer.split("/")[1:]:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        schema = node
    return schema, document


def _branches(schema: Any, document: str) -> Iterator[tuple[dict[str, Any], str]]:
    schema, document = _resolve(schema, document)
    if not isinstance(schema, dict):
        return
    yield schema, document
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key) or []:
            yield from _branches(branch, document)
    for key in ("then", "else"):
        if key in schema:
            yield from _branches(schema[key], document)


def schemas_at(kind: str, path: PathKey) -> list[tuple[dict[str, Any], str]]:
    """Every (sub)schema the value at ``path`` of a ``kind`` file may have to match."""
    document = f"{kind}.schema.json"
    current = list(_branches(_schemas()[document], document))
    for element in path:
        following: list[tuple[dict[str, Any], str]] = []
        for schema, doc in current:
            if isinstance(element, int):
                if "items" in schema:
                    following += _branches(schema["items"], doc)
                continue
            properties = schema.get("properties") or {}
            if element in properties:
                following += _branches(properties[element], doc)
            elif isinstance(schema.get("additionalProperties"), dict):
                following += _branches(schema["additionalProperties"], doc)
            else:
                for value in (schema.get("patternProperties") or {}).values():
                    following += _branches(value, doc)
        current = following
    return current


def _item(
    label: str, kind: types.CompletionItemKind, detail: str = "", insert: str | None = None
) -> types.CompletionItem:
    return types.CompletionItem(label=label, kind=kind, detail=detail or None, insert_text=insert)


def key_items(session: Session, container: PathKey) -> list[types.CompletionItem]:
    kind = _KIND_SCHEMA.get(session.kind)
    if kind is None:
        return []
    present = _present_keys(session, container)
    items: dict[str, types.CompletionItem] = {}
    for schema, document in schemas_at(kind, container):
        for key, sub in (schema.get("properties") or {}).items():
            if key in present or key in items:
                continue
            resolved, _ = _resolve(sub, document)
            detail = str(resolved.get("description", "")) if isinstance(resolved, dict) else ""
            items[key] = _item(key, types.CompletionItemKind.Property, detail, f"{key}: ")
    if kind == "tool" and container == ("variants",):
        for family in _families(session):
            if family not in present:
                items.setdefault(family, _item(family, types.CompletionItemKind.Module, "family", f"{family}:"))
    return sorted(items.values(), key=lambda item: item.label)


def _present_keys(session: Session, container: PathKey) -> set[str]:
    source = session.source(session.path)
    node: Any = source.data if source is not None else None
    for element in container:
        try:
            node = node[element]
        except (KeyError, IndexError, TypeError):
            return set()
    return set(node) if isinstance(node, dict) else set()


def _data(session: Session, name: str) -> Any:
    source = session.source(session.specs / name)
    return source.data if source is not None and isinstance(source.data, dict) else {}


def _names(folder: str, session: Session) -> list[str]:
    path = session.specs / folder
    return [p.stem for p in spec_files(path)] if os.path.isdir(path) else []


def _families(session: Session) -> list[str]:
    return _names("variants", session)


def value_items(session: Session, path: PathKey) -> list[types.CompletionItem]:
    """Values for the key or list item at ``path``."""
    last = path[-1] if path else None
    parent = path[-2] if len(path) >= 2 else None
    ref = types.CompletionItemKind.Reference
    names: list[tuple[str, str]] = []
    if last == "use":
        names = [(n, "shared parameter") for n in (_data(session, "parameters.yaml").get("parameters") or {})]
    elif last == "extends" and session.kind == "tool":
        variants = (_present_node(session, ("variants",)) or {}).keys()
        names = [(n, "variant") for n in variants if len(path) < 2 or n != path[1]]
    elif last == "fallback" or (session.kind == "project" and parent == "families"):
        names = [(n, "family") for n in _families(session)]
    elif parent == "tools" or parent == "dependencies" or path[-2:] == ("handler", "shares"):
        names = [(n, "tool") for n in _names("tools", session)]
    elif parent == "formats" or last == "format":
        names = [(n, "native format") for n in FORMATS]
    elif last == "field":
        names = [(n, "context field") for n in (_data(session, "toolgen.yaml").get("context") or {})]
    elif last == "class":
        names = [(n, "handler class") for n in _handler_classes(session)]
    kind = _KIND_SCHEMA.get(session.kind)
    if not names and kind is not None:
        for schema, _ in schemas_at(kind, path):
            for option in schema.get("enum") or []:
                names.append((json.dumps(option) if not isinstance(option, str) else option, "allowed value"))
    seen: dict[str, types.CompletionItem] = {}
    for name, detail in names:
        seen.setdefault(str(name), _item(str(name), ref, detail))
    return list(seen.values())


def _present_node(session: Session, path: PathKey) -> dict[str, Any] | None:
    source = session.source(session.path)
    node: Any = source.data if source is not None else None
    for element in path:
        node = node.get(element) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None


def _handler_classes(session: Session) -> list[str]:
    found: set[str] = set()
    for path, source in session.analysis.sources.items():
        data = source.data
        if path.parent.name == "tools" and isinstance(data, dict) and isinstance(data.get("handler"), dict):
            name = data["handler"].get("class")
            if isinstance(name, str):
                found.add(name)
    return sorted(found)


def complete(session: Session, position: types.Position) -> types.CompletionList | None:
    column = session.column(position)
    line_text = line_of(session.text, position.line)
    placeholder = placeholder_at(line_text, column)
    if placeholder is not None and "{{" in line_text[:column]:
        names = _data(session, "toolgen.yaml").get("placeholders") or {}
        items = [_item(n, types.CompletionItemKind.Constant, "placeholder") for n in names]
        return types.CompletionList(is_incomplete=False, items=items)
    cursor = session.cursor(position)
    if cursor.on_key:
        if cursor.key is None and cursor.container and isinstance(cursor.container[-1], int):
            # a list item: a scalar value (tool id, family, format) or the first key of a mapping
            items = value_items(session, cursor.container) + key_items(session, cursor.container)
        else:
            items = key_items(session, cursor.container)
    else:
        items = value_items(session, cursor.path)
    return types.CompletionList(is_incomplete=False, items=items)
