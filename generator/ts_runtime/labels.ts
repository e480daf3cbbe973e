/**
 * Short labels for tool calls, such as `[read_file for 'src/app.ts']`, from spec templates.
 *
 * Mirrors generator/runtime/labels.py: `{path}` is the value of parameter `path`; `{path|absolutePath}`
 * the first alternative the call gives a value for; `{{` and `}}` are literal braces. Filling never
 * throws: a missing or empty value becomes MISSING, a non-string value is shown as compact JSON,
 * whitespace runs become one space and a long value is cut to MAX_VALUE_CHARS ending in an ellipsis.
 */

/** The longest value shown in a label (in code points); longer ones are cut. */
export const MAX_VALUE_CHARS = 60;
/** Shown for a parameter the call does not give (or gives empty). */
export const MISSING = "\u2026";

/** Literal text, or the alternative parameter names of one placeholder. */
export type Piece = string | readonly string[];

export class LabelSyntaxError extends Error {
  readonly offset: number;

  constructor(offset: number, message: string) {
    super(message);
    this.name = "LabelSyntaxError";
    this.offset = offset;
  }
}

const NAME_CHAR = /^[\p{L}\p{N}_-]$/u;
/** Python's str.split() whitespace. */
const PY_WS = /[\s\u001c-\u001f\u0085]+/g;

function names(body: string, start: number): string[] {
  const found = body.split("|").map((part) => part.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, ""));
  for (const name of found) {
    if (!name) throw new LabelSyntaxError(start, `empty parameter name in placeholder '{${body}}'`);
    if (!Array.from(name).every((ch) => NAME_CHAR.test(ch))) {
      throw new LabelSyntaxError(start, `'${name}' in placeholder '{${body}}' is not a parameter name`);
    }
  }
  return found;
}

/** The pieces of `template`; throws LabelSyntaxError for a malformed one. */
export function parseLabel(template: string): Piece[] {
  const pieces: Piece[] = [];
  let text = "";
  let index = 0;
  while (index < template.length) {
    const ch = template[index] as string;
    if ((ch === "{" || ch === "}") && template.startsWith(ch + ch, index)) {
      text += ch;
      index += 2;
    } else if (ch === "}") {
      throw new LabelSyntaxError(index, "a lone '}' (write '}}' for a literal brace)");
    } else if (ch === "{") {
      const end = template.indexOf("}", index + 1);
      const opened = template.indexOf("{", index + 1);
      if (end < 0 || (opened >= 0 && opened < end)) {
        throw new LabelSyntaxError(index, "a '{' without its '}' (write '{{' for a literal brace)");
      }
      if (text) {
        pieces.push(text);
        text = "";
      }
      pieces.push(names(template.slice(index + 1, end), index));
      index = end + 1;
    } else {
      text += ch;
      index += 1;
    }
  }
  if (text) pieces.push(text);
  return pieces;
}

/** `value` as label text, or null when it counts as missing. */
function shown(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value) ?? typeof value;
    } catch {
      text = typeof value;
    }
  }
  text = text.split(PY_WS).filter((part) => part).join(" ");
  if (!text) return null;
  const chars = Array.from(text);
  if (chars.length > MAX_VALUE_CHARS) {
    text = chars.slice(0, MAX_VALUE_CHARS - 1).join("").replace(/[\s\u001c-\u001f\u0085]+$/, "") + MISSING;
  }
  return text;
}

/** `template` filled from `params` (an object; anything else counts as empty). */
export function fillLabel(template: string, params: unknown): string {
  let pieces: Piece[];
  try {
    pieces = parseLabel(template);
  } catch {
    return String(template);
  }
  const values = (typeof params === "object" && params !== null && !Array.isArray(params) ? params : {}) as {
    readonly [name: string]: unknown;
  };
  let out = "";
  for (const piece of pieces) {
    if (typeof piece === "string") {
      out += piece;
      continue;
    }
    let value: string | null = null;
    for (const name of piece) {
      value = shown(Object.hasOwn(values, name) ? values[name] : undefined);
      if (value !== null) break;
    }
    out += value ?? MISSING;
  }
  return out;
}
