/**
 * The types of the format records and the functions over them; the records themselves are data,
 * written by tools/make_format_tables.py from runtime/formats.py into formats.ts (which re-exports
 * this module: import from formats.js).
 */

import { keyError } from "./pyspell.js";

/** A regular expression with the pattern text Python messages quote. */
export interface Pattern {
  readonly pattern: string;
  readonly regex: RegExp;
}

export function pattern(source: string): Pattern {
  return { pattern: source, regex: new RegExp(source, "u") };
}

/** Whether the whole of `text` matches (Python's `fullmatch`; the patterns are anchored). */
export function fullmatch(p: Pattern, text: string): boolean {
  return p.regex.test(text);
}

/** How one format (or its strict mode) converts a parameters JSON Schema. */
export interface SchemaPolicy {
  readonly hooks: string;
  readonly keywords: ReadonlyMap<string, string>;
  readonly default: string;
  readonly refuseMessage: string;
  readonly refuseHint: string;
  readonly mergeAllOf: boolean;
  readonly oneOfAsAnyOf: boolean;
  readonly recursiveRefs: boolean;
  readonly rootType: string;
  /** The root gets `additionalProperties: false` unless it says otherwise. */
  readonly closedRoot: boolean;
  /** Added to the format name in messages (" strict"). */
  readonly label: string;
  /** Documented object nesting limit: a notice past it, not a refusal. */
  readonly maxDepth: number | null;
  /** JSON type -> the format's type name, when it spells them differently (insertion order kept). */
  readonly types: ReadonlyMap<string, string>;
  /** Kept `format` values per (format's) type name; "*" for any type. */
  readonly formats: ReadonlyMap<string, readonly string[]>;
}

/** A place in an envelope filled per tool. */
export class Slot {
  constructor(readonly name: string) {}
}

/** In a layout: a list holding one element laid out as `layout`. */
export class Items {
  constructor(readonly layout: Envelope) {}
}

/** A layout: (key, literal value, Slot, Items or nested layout) pairs, in output order. */
export type Envelope = readonly (readonly [string, EnvelopePart])[];
export type EnvelopePart = string | Slot | Items | Envelope;

/** How one tool call is spelled in a response (see FormatRecord.callPath). */
export interface CallFields {
  readonly id: readonly string[];
  readonly name: readonly string[];
  readonly arguments: readonly string[];
  readonly marker: readonly [string, string] | null;
  readonly wrapper: string | null;
  readonly idsOptional: boolean;
}

/** Everything toolgen knows about one provider's native tool format. */
export interface FormatRecord {
  readonly name: string;
  readonly module: string;
  readonly envelope: Envelope;
  readonly schema: SchemaPolicy;
  readonly strict: SchemaPolicy | null;
  readonly toolName: Pattern;
  readonly propertyKey: Pattern | null;
  readonly propertyKeyEverywhere: boolean;
  /** Python format text: `{name!r}` stands for the key's Python repr. */
  readonly propertyKeyMessage: string;
  readonly propertyKeyHint: string;
  readonly limitsLabel: string;
  readonly maxTools: number | null;
  readonly maxDescription: number | null;
  readonly descriptionRequired: boolean;
  readonly parametersOptional: boolean;
  readonly cacheControl: boolean;
  readonly jsonSchemaKey: string | null;
  readonly callPath: readonly (string | number)[];
  readonly callFields: CallFields | null;
  readonly resultEnvelope: Envelope | null;
  readonly resultGroup: Envelope | null;
  /** How a response says that it stopped at the output limit (calls cut off there are not run). */
  readonly cutOff: CutOff | null;
}

/**
 * How a response says that the output limit cut it off (`FormatRecord.cutOff`).
 *
 * When the value at `path` is one of `values`, the reply's last call is cut off if it is the last
 * element of the call list. A call whose own status (`callStatus` from the call element) is one of
 * `callStatusValues` is cut off wherever it stands. A cut-off call is never run.
 */
export interface CutOff {
  readonly path: readonly (string | number)[];
  readonly values: readonly string[];
  readonly callStatus: readonly string[];
  readonly callStatusValues: readonly string[];
}

/** Keys from the entry's top to `slot`; throws when the envelope lacks it (Python: KeyError). */
export function pathTo(rec: FormatRecord, slot: Slot): string[] {
  const stack: [Envelope, string[]][] = [[rec.envelope, []]];
  while (stack.length > 0) {
    const [layout, prefix] = stack.pop()!;
    for (const [key, value] of layout) {
      if (value === slot) return [...prefix, key];
      if (Array.isArray(value)) stack.push([value as Envelope, [...prefix, key]]);
    }
  }
  throw keyError(slot.name);
}
