"""Where a ``$ref`` leads: URI resolution, JSON pointers, ``$id`` resources and anchors.

Standard library only; ts_runtime/schema_index.ts resolves the same way. URIs are resolved by
RFC 3986 section 5 (also ``urn:`` bases, which urllib cannot join). ``SchemaIndex`` walks each
document once, following only the places that hold schemas in its dialect, and records every
resource (``$id``), ``$anchor``, ``$dynamicAnchor`` and draft-7 ``$id: "#name"``, with the base
URI and dialect of every schema object it passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

__all__ = [
    "DIALECT_URIS",
    "Located",
    "SchemaIndex",
    "decode_pointer",
    "dialect_of",
    "resolve_uri",
    "split_fragment",
]

_URI = re.compile(
    r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S
)

#: ``$schema`` values (without a trailing ``#``, http or https) and the dialect each selects.
#: Draft 6 and draft 4 are read by draft 7's rules (draft 4's boolean bounds are kept).
DIALECT_URIS = {
    "json-schema.org/draft/2020-12/schema": "2020-12",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft-07/schema": "draft7",
    "json-schema.org/draft-06/schema": "draft7",
    "json-schema.org/draft-04/schema": "draft7",
}

# Keywords holding one schema, a list of schemas, or a map of names to schemas.
_ONE = (
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "propertyNames",
    "contains",
    "items",
    "not",
    "if",
    "then",
    "else",
)
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_MAP = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")


def dialect_of(uri: str) -> str | None:
    """The dialect a ``$schema`` URI selects, None when toolgen does not know it."""
    bare = uri[:-1] if uri.endswith("#") else uri
    for scheme in ("https://", "http://"):
        if bare.startswith(scheme):
            return DIALECT_URIS.get(bare[len(scheme) :])
    return None


def _remove_dots(path: str) -> str:
    out: list[str] = []
    segments = path.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".":
            if last:
                out.append("")
        elif segment == "..":
            if len(out) > 1 or (out and out[0] != ""):
                out.pop()
            if last:
                out.append("")
        else:
            out.append(segment)
    return "/".join(out)


def resolve_uri(base: str, ref: str) -> str:
    """``ref`` resolved against ``base`` (RFC 3986, section 5.2)."""
    scheme, authority, path, query, fragment = _URI.match(ref).groups()  # type: ignore[union-attr]
    b_scheme, b_authority, b_path, b_query, _ = _URI.match(base).groups()  # type: ignore[union-attr]
    if scheme is None:
        scheme = b_scheme
        if authority is None:
            authority = b_authority
            if path == "":
                path = b_path
                query = b_query if query is None else query
            else:
                if not path.startswith("/"):
                    if b_authority is not None and b_path == "":
                        path = "/" + path
                    else:
                        path = b_path[: b_path.rfind("/") + 1] + path
        path = _remove_dots(path)
    else:
        path = _remove_dots(path)
    text = f"{scheme}:" if scheme is not None else ""
    if authority is not None:
        text += "//" + authority
    text += path
    if query is not None:
        text += "?" + query
    if fragment is not None:
        text += "#" + fragment
    return text


def split_fragment(uri: str) -> tuple[str, str | None]:
    """``(uri without its fragment, the fragment or None)``."""
    at = uri.find("#")
    return (uri, None) if at < 0 else (uri[:at], uri[at + 1 :])


def decode_pointer(fragment: str) -> list[str] | None:
    """A URI fragment read as a JSON pointer (percent-decoded, ``~1`` and ``~0``), or None."""
    text = unquote(fragment)
    if text == "":
        return []
    if not text.startswith("/"):
        return None
    return [p.replace("~1", "/").replace("~0", "~") for p in text[1:].split("/")]


def pointer_text(parts: tuple[Any, ...]) -> str:
    """A JSON pointer for keys and indices (``/properties/a~1b``)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass(frozen=True)
class Located:
    """A schema found by URI: the value, its base URI, dialect, document and pointer in it."""

    schema: Any
    base: str
    dialect: str
    document: str
    pointer: tuple[Any, ...]


class SchemaIndex:
    """Every resource and anchor of the documents added, by absolute URI."""

    def __init__(self) -> None:
        self.resources: dict[str, Located] = {}
        self.anchors: dict[str, Located] = {}
        self.dynamic: dict[str, Located] = {}
        self.places: dict[int, Located] = {}
        """Each schema object walked (by id): where it is and which base and dialect it has."""
        self.documents: dict[str, Any] = {}

    def add(self, document: Any, uri: str, dialect: str) -> list[tuple[Located, str]]:
        """Walk a document; return its ``$schema`` values that name no known dialect."""
        self.documents[uri] = document
        unknown: list[tuple[Located, str]] = []
        stack = [Located(document, uri, dialect, uri, ())]
        while stack:
            place = stack.pop()
            node = place.schema
            if not isinstance(node, dict):
                continue
            base, current = place.base, place.dialect
            declared = node.get("$schema")
            if isinstance(declared, str) and (place.pointer == () or "$id" in node):
                found = dialect_of(declared)
                if found is None:
                    unknown.append((place, declared))
                else:
                    current = found
            ident = node.get("$id")
            anchors: list[str] = []
            if isinstance(ident, str) and not (
                current == "draft7" and "$ref" in node and place.pointer != ()
            ):  # draft 7: $ref overrides its siblings, $id too
                target, fragment = split_fragment(resolve_uri(base, ident))
                if not ident.startswith("#"):
                    base = target
                if current == "draft7" and fragment:
                    anchors.append(target + "#" + fragment)
            place = Located(node, base, current, place.document, place.pointer)
            self.places[id(node)] = place
            if place.pointer == ():
                self.resources.setdefault(uri, place)  # the document's own URI
            self.resources.setdefault(base, place)
            for key in ("$anchor", "$dynamicAnchor"):
                name = node.get(key)
                if isinstance(name, str) and current != "draft7":
                    anchors.append(base + "#" + name)
                    if key == "$dynamicAnchor":
                        self.dynamic.setdefault(base + "#" + name, place)
            for anchor in anchors:
                self.anchors.setdefault(anchor, place)
            stack.extend(self._children(place))
        return unknown

    def _children(self, place: Located) -> Iterator[Located]:
        node = place.schema
        for key, value in node.items():
            at = place.pointer + (key,)
            if key in _MAP and isinstance(value, dict):
                for name, sub in value.items():
                    yield Located(
                        sub, place.base, place.dialect, place.document, at + (name,)
                    )
            elif key == "dependencies" and isinstance(value, dict):
                for name, sub in value.items():
                    if isinstance(sub, dict):
                        yield Located(
                            sub, place.base, place.dialect, place.document, at + (name,)
                        )
            elif key in _MANY and isinstance(value, list):
                for index, sub in enumerate(value):
                    yield Located(
                        sub, place.base, place.dialect, place.document, at + (index,)
                    )
            elif key in _ONE:
                yield Located(value, place.base, place.dialect, place.document, at)

    def locate(self, uri: str) -> Located | None:
        """The schema an absolute URI (with or without a fragment) names, or None."""
        target, fragment = split_fragment(uri)
        if fragment is None or fragment == "":
            return self.resources.get(target)
        parts = decode_pointer(fragment)
        if parts is None:
            return self.anchors.get(target + "#" + fragment)
        start = self.resources.get(target)
        if start is None:
            return None
        node, place = start.schema, start
        pointer = start.pointer
        for part in parts:
            if isinstance(node, dict) and part in node:
                node = node[part]
                pointer += (part,)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
                pointer += (int(part),)
            else:
                return None
            place = (
                self.places.get(id(node), place) if isinstance(node, dict) else place
            )
        return Located(node, place.base, place.dialect, start.document, pointer)
