/**
 * ECMA-262 regular expressions (`u` flag semantics) for JSON Schema's `pattern` keywords
 * (mirrors ecma_regex.py: the same answers and the same errors).
 *
 * INTERFACE STUB: the translation layer replaces this body; the API below is fixed.
 */

/** A pattern that is not valid ECMA-262 (`u` mode), or that toolgen refuses. */
export class PatternError extends Error {
  /** Where the problem is, in code points from the start of `source`. */
  readonly offset: number;
  readonly source: string;

  constructor(message: string, source: string, offset: number) {
    super(message);
    this.name = "PatternError";
    this.source = source;
    this.offset = offset;
  }
}

const CACHE = new Map<string, (text: string) => boolean>();

/** A function telling whether `source` matches anywhere in a text; throws PatternError otherwise. */
export function compilePattern(source: string): (text: string) => boolean {
  let found = CACHE.get(source);
  if (found === undefined) {
    let regexp: RegExp;
    try {
      regexp = new RegExp(source, "u");
    } catch (error) {
      throw new PatternError(error instanceof Error ? error.message : String(error), source, 0);
    }
    found = (text: string): boolean => regexp.test(text);
    CACHE.set(source, found);
  }
  return found;
}
