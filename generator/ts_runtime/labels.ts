/**
 * Short labels for tool calls, such as `[read_file for 'src/app.ts']`, from spec templates
 * (mirrors labels.py).
 *
 * A template names the call's parameters in braces: `{path}` is the value of `path`,
 * `{path|absolutePath}` the first alternative the call gives a value for, `{? in '{pattern}'}` an
 * optional part (shown only when the call gives a value for every placeholder inside it; optional
 * parts do not nest), `{{` and `}}` are literal braces. Filling never throws: a missing or empty value becomes `MISSING`, a value that
 * is not a string is shown as compact JSON, whitespace runs become one space and a long value is
 * cut to `MAX_VALUE_CHARS` ending in an ellipsis.
 */

import { has, isDict, pyJsonDumps, pyLen, pyRepr, pyRstrip, pySlice, pySplit, pyStrip, pyTypeName } from "./pyspell.js";

/** The longest value shown in a label; longer ones are cut and end in an ellipsis. */
export const MAX_VALUE_CHARS = 60;
/** Shown for a parameter the call does not give (or gives empty). */
export const MISSING = "\u2026";

/** Literal text, or the alternative parameter names of one placeholder. */
export type Simple = string | readonly string[];

/** An optional part of a template: shown only when every placeholder in it has a value. */
export interface Optional {
  readonly optional: readonly Simple[];
}

export type Piece = Simple | Optional;

function isOptional(piece: Piece): piece is Optional {
  return typeof piece === "object" && !Array.isArray(piece);
}

/** A malformed label template; `offset` is the character where the problem starts. */
export class LabelSyntaxError extends Error {
  readonly offset: number;

  constructor(offset: number, message: string) {
    super(message);
    this.name = "LabelSyntaxError";
    this.offset = offset;
  }
}

const NAME_CHAR = /^[\p{L}\p{N}_-]$/u;

function names(body: string, start: number): string[] {
  const out = body.split("|").map(pyStrip);
  for (const name of out) {
    if (!name) {
      throw new LabelSyntaxError(start, `empty parameter name in placeholder '{${body}}'`);
    }
    if (![...name].every((ch) => NAME_CHAR.test(ch))) {
      throw new LabelSyntaxError(
        start,
        `${pyRepr(name)} in placeholder '{${body}}' is not a parameter name`,
      );
    }
  }
  return out;
}

const PARSED = new Map<string, readonly Piece[]>();
const PARSED_MAX = 256;

/** The pieces of `template`; throws `LabelSyntaxError` for a malformed one. */
export function parseLabel(template: string): readonly Piece[] {
  const cached = PARSED.get(template);
  if (cached !== undefined) return cached;
  const pieces: Piece[] = [];
  let part: Simple[] | null = null; // the optional part being read, if any
  let partStart = 0;
  let text = "";
  const flush = (): void => {
    if (text) (part ?? pieces).push(text);
    text = "";
  };
  let index = 0;
  while (index < template.length) {
    const ch = template[index] as string;
    if ((ch === "{" || ch === "}") && template.startsWith(ch + ch, index)) {
      text += ch;
      index += 2;
    } else if (template.startsWith("{?", index)) {
      if (part !== null) throw new LabelSyntaxError(index, "optional parts '{?...}' do not nest");
      flush();
      part = [];
      partStart = index;
      index += 2;
    } else if (ch === "}") {
      if (part === null) throw new LabelSyntaxError(index, "a lone '}' (write '}}' for a literal brace)");
      flush();
      if (!part.some((piece) => typeof piece !== "string")) {
        throw new LabelSyntaxError(partStart, "an optional part names no parameter, so it would always show");
      }
      pieces.push({ optional: part });
      part = null;
      index += 1;
    } else if (ch === "{") {
      const end = template.indexOf("}", index + 1);
      const opened = template.indexOf("{", index + 1);
      if (end < 0 || (opened >= 0 && opened < end)) {
        throw new LabelSyntaxError(index, "a '{' without its '}' (write '{{' for a literal brace)");
      }
      flush();
      (part ?? pieces).push(names(template.slice(index + 1, end), index));
      index = end + 1;
    } else {
      text += ch;
      index += 1;
    }
  }
  if (part !== null) throw new LabelSyntaxError(partStart, "an optional part '{?' without its '}'");
  flush();
  if (PARSED.size >= PARSED_MAX) PARSED.delete(PARSED.keys().next().value as string);
  PARSED.set(template, pieces);
  return pieces;
}

/** Every parameter name `template` mentions, in order, without repeats. */
export function labelNames(template: string): string[] {
  const seen = new Set<string>();
  for (const piece of parseLabel(template)) {
    for (const simple of isOptional(piece) ? piece.optional : [piece]) {
      if (typeof simple !== "string") simple.forEach((name) => seen.add(name));
    }
  }
  return [...seen];
}

/** `text` as literal label text (braces doubled), e.g. a tool name inside a template. */
export function escapeLabelText(text: string): string {
  return text.replaceAll("{", "{{").replaceAll("}", "}}");
}

function shown(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === "string") {
    text = value;
  } else {
    try {
      text = pyJsonDumps(value, ",", ":");
    } catch {
      text = pyTypeName(value); // deep nesting, odd objects: still a label, never an error
    }
  }
  text = pySplit(text).join(" ");
  if (!text) return null;
  if (pyLen(text) > MAX_VALUE_CHARS) text = pyRstrip(pySlice(text, MAX_VALUE_CHARS - 1)) + MISSING;
  return text;
}

/** `template` filled from `params` (an object; anything else counts as empty). */
export function fillLabel(template: string, params: unknown): string {
  let pieces: readonly Piece[];
  try {
    pieces = parseLabel(template);
  } catch {
    return String(template);
  }
  const values = isDict(params) ? params : {};
  let out = "";
  for (const piece of pieces) {
    if (isOptional(piece)) {
      const parts = piece.optional.map((simple) => filled(simple, values));
      if (parts.every((part) => part !== null)) out += parts.join("");
    } else {
      out += filled(piece, values) ?? MISSING;
    }
  }
  return out;
}

/** Literal text as it is; a placeholder's first given value, or null when none is given. */
function filled(piece: Simple, values: Readonly<Record<string, unknown>>): string | null {
  if (typeof piece === "string") return piece;
  for (const name of piece) {
    const text = shown(has(values, name) ? values[name] : undefined);
    if (text !== null) return text;
  }
  return null;
}
