import assert from "node:assert/strict";
import { test } from "node:test";

import { compilePattern, javascriptSource, PatternError } from "../ecma_regex.js";

function matches(pattern: string, text: string): boolean {
  return compilePattern(pattern)(text);
}

function failure(pattern: string): [number, string] {
  try {
    compilePattern(pattern);
  } catch (error) {
    assert.ok(error instanceof PatternError, String(error));
    assert.equal(error.source, pattern);
    return [error.offset, error.message];
  }
  assert.fail(`${pattern} compiled`);
}

test("search semantics: anchors are start and end of input only, . skips only line terminators", () => {
  assert.equal(matches("b", "abc"), true);
  assert.equal(matches("^abc$", "abc\n"), false);
  assert.equal(matches("^.$", "\u0085"), true);
  assert.equal(matches("^.$", "\u2028"), false);
  assert.equal(matches("^.$", "\u{1f600}"), true);
  assert.equal(matches("^..$", "\u{1f600}"), false);
});

test("class escapes are ASCII (\\d, \\w, \\b) or ECMA-262 WhiteSpace (\\s), spelled out", () => {
  assert.equal(matches("^\\d$", "\u0660"), false);
  assert.equal(matches("^\\w$", "\u00e9"), false);
  assert.equal(matches("\\bx", "\u00e9x"), true);
  assert.equal(matches("^\\s$", "\ufeff"), true);
  assert.equal(matches("^\\s$", "\u0085"), false);
  assert.equal(matches("^\\S$", "\u180e"), true);
  assert.equal(matches("\\B", ""), true);
  assert.equal(javascriptSource("\\d"), "[0-9]");
  assert.equal(javascriptSource("[^a]"), "[^a]");
});

test("\\p{..} comes from the committed Unicode 17 table, every General_Category alias", () => {
  assert.equal(matches("^\\p{Letter}+$", "\u00e9cole"), true);
  assert.equal(matches("^\\p{L}$", "\u0295"), true);
  assert.equal(matches("^\\p{Lo}$", "\u0295"), true); // Ll in Unicode 14 (Python 3.11), Lo in 17
  assert.equal(matches("^\\p{digit}$", "\u0966"), true);
  assert.equal(matches("^\\p{gc=Lu}$", "a"), false);
  assert.equal(matches("^\\P{Assigned}$", "\u0378"), true);
  assert.equal(matches("^[\\p{Combining_Mark}]$", "\u0301"), true);
  assert.ok(!javascriptSource("\\p{L}").includes("\\p"));
});

test("escapes: surrogate pairs are one code point, lone surrogates match alone", () => {
  assert.equal(matches("^\\uD83D\\uDE00$", "\u{1f600}"), true);
  assert.equal(matches("^\\u{1F600}$", "\u{1f600}"), true);
  assert.equal(matches("\\uDE00", "\u{1f600}"), false);
  assert.equal(matches("^\\uDE00$", "\ude00"), true);
  assert.equal(matches("^\\cJ\\x41\\0$", "\nA\0"), true);
});

test("backreferences: unset groups match empty, as in JavaScript", () => {
  assert.equal(matches("^(a)?b\\1$", "b"), true);
  assert.equal(matches("^(a)?b\\1$", "aba"), true);
  assert.equal(matches("^(?<x>[ab])\\k<x>$", "ab"), false);
  assert.equal(matches("^(a)|\\1b$", "b"), true);
});

test("lookbehind alternatives of different lengths are fine", () => {
  assert.equal(matches("(?<=a|bc)d", "bcd"), true);
  assert.equal(matches("(?<!a|bc)d", "bcd"), false);
});

test("errors carry the same messages and offsets as the Python runtime", () => {
  assert.deepEqual(failure("a{,5}"), [
    1,
    "{,n} is not an ECMA-262 quantifier: write {0,n}, or \\{ to match the character itself",
  ]);
  assert.deepEqual(failure("ab)"), [2, "unmatched ): write \\) to match the character itself"]);
  assert.deepEqual(failure("x(a"), [1, "missing ) to close the group that opens here"]);
  assert.deepEqual(failure("[z-a]"), [1, "the range z-a is out of order: write the smaller character first"]);
  assert.deepEqual(failure("\u{1f600}\\1"), [1, "\\1 refers to group 1, but the pattern has 0 capturing groups"]);
  assert.deepEqual(failure("\\-"), [
    0,
    "invalid escape \\-: with the u flag only ^ $ \\ . * + ? ( ) [ ] { } | / can be escaped; write the character itself",
  ]);
  assert.deepEqual(failure("\\p{Foo}"), [
    0,
    "unknown Unicode property Foo: write a General_Category value (L, Nd, Letter, ...), Any, ASCII or Assigned",
  ]);
});

test("refusals say what toolgen does not support and what to write", () => {
  for (const pattern of [
    "(?<=a+)b",
    "\\1(a)",
    "(?=(a))\\1",
    "(?:(a)|b)+\\1",
    "(?i:a)",
    "(?<a>x)(?<a>y)",
    "(?<\u00e9>x)",
    "\\p{Script=Greek}",
    "a{2147483648}",
    "(".repeat(33) + ")".repeat(33),
  ]) {
    assert.match(failure(pattern)[1], /^toolgen does not support /, pattern);
  }
});

test("compiled patterns are cached; a pattern that is not a string is a PatternError", () => {
  assert.equal(compilePattern("^x+$"), compilePattern("^x+$"));
  for (const source of [null, 5, ["a"]]) {
    assert.throws(() => compilePattern(source as unknown as string), { name: "PatternError", message: "a pattern must be a string" });
  }
});
