"""The ``format`` values the validator asserts, one checking function each.

Standard library only; ts_runtime/json_formats.ts checks the same way (the same ASCII-only
grammars, read the same in both languages). Which formats are asserted is data
(validation_keywords.FORMATS); ``CHECKS`` holds the code and ``LIKE`` an example of a valid
value for the problem message. String formats look at strings only, number formats
(OpenAPI's and Gemini's int32, int64, float, double) at numbers only.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from .ecma_regex import PatternError, compile_pattern

__all__ = ["CHECKS", "LIKE"]

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIME = re.compile(
    r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
_DUR_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DUR_DATE = r"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"
_DURATION = re.compile(rf"P(?:{_DUR_DATE}(?:{_DUR_TIME})?|{_DUR_TIME}|[0-9]+W)")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")
_HEX_GROUP = re.compile(r"[0-9A-Fa-f]{1,4}")
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(
    rf"{_ATOM}(?:\.{_ATOM})*|\"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*\""
)
_UUID = re.compile(
    r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
)
_POINTER = r"(?:/(?:[^~/]|~[01])*)*"
_JSON_POINTER = re.compile(_POINTER)
_RELATIVE_POINTER = re.compile(rf"(?:0|[1-9][0-9]*)(?:#|{_POINTER})")
_URI = re.compile(
    r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.S
)
_PCHAR = r"[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}"
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")
_PATH = re.compile(rf"(?:{_PCHAR}|/)*")
_QUERY = re.compile(rf"(?:{_PCHAR}|[/?])*")
_USERINFO = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*")
_REG_NAME = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
_IP_FUTURE = re.compile(r"[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+")
_PORT = re.compile(r"[0-9]*")


def _days(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if match is None:
        return False
    year, month, day = (int(g) for g in match.groups())
    return 1 <= month <= 12 and 1 <= day <= _days(year, month)


def _time(text: str) -> bool:
    match = _TIME.fullmatch(text)
    if match is None:
        return False
    hour, minute, second = int(match[1]), int(match[2]), int(match[3])
    off_hour, off_minute = int(match[5] or 0), int(match[6] or 0)
    if hour > 23 or minute > 59 or second > 60 or off_hour > 23 or off_minute > 59:
        return False
    if second == 60:  # a leap second happens at 23:59:60 UTC only
        offset = (off_hour * 60 + off_minute) * (-1 if match[4] == "-" else 1)
        return (hour * 60 + minute - offset) % 1440 == 23 * 60 + 59
    return True


def _date_time(text: str) -> bool:
    return len(text) > 11 and text[10] in "Tt" and _date(text[:10]) and _time(text[11:])


def _ipv4(text: str) -> bool:
    return _IPV4.fullmatch(text) is not None


def _ipv6(text: str) -> bool:
    if text.count("::") > 1:
        return False
    compressed = "::" in text
    if compressed:
        head, tail = text.split("::")
        groups = (head.split(":") if head else []) + (tail.split(":") if tail else [])
    else:
        groups = text.split(":")
    count = len(groups)
    if groups and "." in groups[-1]:
        if not _ipv4(groups[-1]):
            return False
        groups, count = groups[:-1], count + 1
    if not all(_HEX_GROUP.fullmatch(g) for g in groups):
        return False
    return count <= 7 if compressed else count == 8


def _hostname(text: str) -> bool:
    if not text or len(text) > 253:
        return False
    for label in text.split("."):
        if _LABEL.fullmatch(label) is None:
            return False
        if label[2:4] == "--" and label[:2].lower() != "xn":
            return False  # RFC 5891 4.2.3.1: "--" in places 3 and 4 only for A-labels
    return True


def _email(text: str) -> bool:
    at = text.rfind("@")
    if at < 1:
        return False
    local, domain = text[:at], text[at + 1 :]
    if _LOCAL.fullmatch(local) is None:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        inner = domain[1:-1]
        if inner[:5].lower() == "ipv6:":
            return _ipv6(inner[5:])
        return _ipv4(inner)
    return _hostname(domain)


def _authority(text: str) -> bool:
    at = text.rfind("@")
    if at >= 0 and _USERINFO.fullmatch(text[:at]) is None:
        return False
    host = text[at + 1 :]
    if host.startswith("["):
        close = host.find("]")
        if close < 0:
            return False
        literal, port = host[1:close], host[close + 1 :]
        if not (_ipv6(literal) or _IP_FUTURE.fullmatch(literal)):
            return False
    else:
        colon = host.find(":")
        literal, port = (host, "") if colon < 0 else (host[:colon], host[colon:])
        if _REG_NAME.fullmatch(literal) is None:
            return False
    return port == "" or (port[0] == ":" and _PORT.fullmatch(port[1:]) is not None)


def _reference(text: str, absolute: bool) -> bool:
    scheme, authority, path, query, fragment = _URI.fullmatch(text).groups()  # type: ignore[union-attr]
    if scheme is None:
        if absolute:
            return False
    elif _SCHEME.fullmatch(scheme) is None:
        return False
    if authority is not None and not _authority(authority):
        return False
    return (
        _PATH.fullmatch(path) is not None
        and (query is None or _QUERY.fullmatch(query) is not None)
        and (fragment is None or _QUERY.fullmatch(fragment) is not None)
    )


def _regex(text: str) -> bool:
    try:
        compile_pattern(text)
    except PatternError:
        return False
    return True


def _integer_within(bits: int) -> Callable[[Any], bool]:
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1

    def check(value: Any) -> bool:
        return bool(
            (isinstance(value, int) or value.is_integer()) and low <= value <= high
        )

    return check


_FLOAT_MAX = 3.4028234663852886e38


CHECKS: dict[str, Callable[[Any], bool]] = {
    "date-time": _date_time,
    "date": _date,
    "time": _time,
    "duration": lambda text: _DURATION.fullmatch(text) is not None,
    "email": _email,
    "hostname": _hostname,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "uuid": lambda text: _UUID.fullmatch(text) is not None,
    "uri": lambda text: _reference(text, True),
    "uri-reference": lambda text: _reference(text, False),
    "json-pointer": lambda text: _JSON_POINTER.fullmatch(text) is not None,
    "relative-json-pointer": lambda text: _RELATIVE_POINTER.fullmatch(text) is not None,
    "regex": _regex,
    "int32": _integer_within(32),
    "int64": _integer_within(64),
    "float": lambda value: bool(-_FLOAT_MAX <= value <= _FLOAT_MAX),
    "double": lambda value: bool(-sys.float_info.max <= value <= sys.float_info.max),
}
"""Per asserted format: does a value of its JSON type have the format (enum: see validation)."""

LIKE: dict[str, str] = {
    "date-time": '"2024-05-01T12:00:00Z"',
    "date": '"2024-05-01"',
    "time": '"12:00:00Z"',
    "duration": '"P1DT2H"',
    "email": '"name@example.com"',
    "hostname": '"example.com"',
    "ipv4": '"192.0.2.1"',
    "ipv6": '"2001:db8::1"',
    "uuid": '"123e4567-e89b-12d3-a456-426614174000"',
    "uri": '"https://example.com/a"',
    "uri-reference": '"../a?b#c"',
    "json-pointer": '"/a/0"',
    "relative-json-pointer": '"1/a"',
    "regex": '"^[a-z]+$"',
    "int32": "an integer from -2147483648 to 2147483647",
    "int64": "an integer from -9223372036854775808 to 9223372036854775807",
    "float": "a number of at most 3.4028234663852886e+38 in size",
    "double": "a number of at most 1.7976931348623157e+308 in size",
}
"""Per asserted format: a valid example (or the range), quoted in the problem message."""
