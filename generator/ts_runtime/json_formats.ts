/**
 * The `format` values the validator asserts, one checking function each (mirrors
 * json_formats.py: the same ASCII-only grammars, so both runtimes give the same answers).
 */

import { PatternError, compilePattern } from "./ecma_regex.js";

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;
const DUR_TIME = "T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)";
const DUR_DATE = "(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)";
const DURATION = /* @__PURE__ */ new RegExp(`^P(?:${DUR_DATE}(?:${DUR_TIME})?|${DUR_TIME}|[0-9]+W)$`);
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = /* @__PURE__ */ new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = /* @__PURE__ */ new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")$`);
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const POINTER = "(?:/(?:[^~/]|~[01])*)*";
const JSON_POINTER = /* @__PURE__ */ new RegExp(`^${POINTER}$`);
const RELATIVE_POINTER = /* @__PURE__ */ new RegExp(`^(?:0|[1-9][0-9]*)(?:#|${POINTER})$`);
const URI = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;
const PCHAR = "[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}";
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const PATH = /* @__PURE__ */ new RegExp(`^(?:${PCHAR}|/)*$`);
const QUERY = /* @__PURE__ */ new RegExp(`^(?:${PCHAR}|[/?])*$`);
const USERINFO = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$/;
const REG_NAME = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const IP_FUTURE = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;
const PORT = /^[0-9]*$/;

function days(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function date(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= days(year, month);
}

function time(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [offHour, offMinute] = [Number(match[5] ?? 0), Number(match[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offHour > 23 || offMinute > 59) return false;
  if (second === 60) {
    // a leap second happens at 23:59:60 UTC only
    const offset = (offHour * 60 + offMinute) * (match[4] === "-" ? -1 : 1);
    return (((hour * 60 + minute - offset) % 1440) + 1440) % 1440 === 23 * 60 + 59;
  }
  return true;
}

function dateTime(text: string): boolean {
  return text.length > 11 && "Tt".includes(text[10] as string) && date(text.slice(0, 10)) && time(text.slice(11));
}

function ipv4(text: string): boolean {
  return IPV4.test(text);
}

function ipv6(text: string): boolean {
  const pieces = text.split("::");
  if (pieces.length > 2) return false;
  const compressed = pieces.length === 2;
  let groups: string[];
  if (compressed) {
    const [head = "", tail = ""] = pieces;
    groups = [...(head ? head.split(":") : []), ...(tail ? tail.split(":") : [])];
  } else {
    groups = text.split(":");
  }
  let count = groups.length;
  if (groups.length > 0 && (groups[groups.length - 1] as string).includes(".")) {
    if (!ipv4(groups[groups.length - 1] as string)) return false;
    groups = groups.slice(0, -1);
    count += 1;
  }
  if (!groups.every((g) => HEX_GROUP.test(g))) return false;
  return compressed ? count <= 7 : count === 8;
}

function hostname(text: string): boolean {
  if (!text || text.length > 253) return false;
  for (const label of text.split(".")) {
    if (!LABEL.test(label)) return false;
    // RFC 5891 4.2.3.1: "--" in places 3 and 4 only for A-labels
    if (label.slice(2, 4) === "--" && label.slice(0, 2).toLowerCase() !== "xn") return false;
  }
  return true;
}

function email(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at < 1) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!LOCAL.test(local)) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const inner = domain.slice(1, -1);
    if (inner.slice(0, 5).toLowerCase() === "ipv6:") return ipv6(inner.slice(5));
    return ipv4(inner);
  }
  return hostname(domain);
}

function authority(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at >= 0 && !USERINFO.test(text.slice(0, at))) return false;
  const host = text.slice(at + 1);
  let port: string;
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    if (close < 0) return false;
    const literal = host.slice(1, close);
    port = host.slice(close + 1);
    if (!(ipv6(literal) || IP_FUTURE.test(literal))) return false;
  } else {
    const colon = host.indexOf(":");
    const literal = colon < 0 ? host : host.slice(0, colon);
    port = colon < 0 ? "" : host.slice(colon);
    if (!REG_NAME.test(literal)) return false;
  }
  return port === "" || (port[0] === ":" && PORT.test(port.slice(1)));
}

function reference(text: string, absolute: boolean): boolean {
  const [, scheme, auth, path = "", query, fragment] = URI.exec(text) as RegExpExecArray;
  if (scheme === undefined) {
    if (absolute) return false;
  } else if (!SCHEME.test(scheme)) {
    return false;
  }
  if (auth !== undefined && !authority(auth)) return false;
  return PATH.test(path) && (query === undefined || QUERY.test(query)) && (fragment === undefined || QUERY.test(fragment));
}

function regex(text: string): boolean {
  try {
    compilePattern(text);
  } catch (error) {
    if (error instanceof PatternError) return false;
    throw error;
  }
  return true;
}

function integerWithin(bits: number): (value: number | bigint) => boolean {
  const low = -(2n ** BigInt(bits - 1));
  const high = 2n ** BigInt(bits - 1) - 1n;
  return (value) => (typeof value === "bigint" || Number.isInteger(value)) && value >= low && value <= high;
}

const FLOAT_MAX = 3.4028234663852886e38;

/** Per asserted format: does a value of its JSON type have the format (enum: see validation). */
export const CHECKS: Readonly<Record<string, (value: any) => boolean>> = {
  "date-time": dateTime,
  date,
  time,
  duration: (text: string) => DURATION.test(text),
  email,
  hostname,
  ipv4,
  ipv6,
  uuid: (text: string) => UUID.test(text),
  uri: (text: string) => reference(text, true),
  "uri-reference": (text: string) => reference(text, false),
  "json-pointer": (text: string) => JSON_POINTER.test(text),
  "relative-json-pointer": (text: string) => RELATIVE_POINTER.test(text),
  regex,
  int32: /* @__PURE__ */ integerWithin(32),
  int64: /* @__PURE__ */ integerWithin(64),
  float: (value: number | bigint) => value >= -FLOAT_MAX && value <= FLOAT_MAX,
  double: (value: number | bigint) => value >= -Number.MAX_VALUE && value <= Number.MAX_VALUE,
};

/** Per asserted format: a valid example (or the range), quoted in the problem message. */
export const LIKE: Readonly<Record<string, string>> = {
  "date-time": '"2024-05-01T12:00:00Z"',
  date: '"2024-05-01"',
  time: '"12:00:00Z"',
  duration: '"P1DT2H"',
  email: '"name@example.com"',
  hostname: '"example.com"',
  ipv4: '"192.0.2.1"',
  ipv6: '"2001:db8::1"',
  uuid: '"123e4567-e89b-12d3-a456-426614174000"',
  uri: '"https://example.com/a"',
  "uri-reference": '"../a?b#c"',
  "json-pointer": '"/a/0"',
  "relative-json-pointer": '"1/a"',
  regex: '"^[a-z]+$"',
  int32: "an integer from -2147483648 to 2147483647",
  int64: "an integer from -9223372036854775808 to 9223372036854775807",
  float: "a number of at most 3.4028234663852886e+38 in size",
  double: "a number of at most 1.7976931348623157e+308 in size",
};
