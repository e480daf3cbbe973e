/**
 * The shapes of the generated catalog data (catalog_data.ts), as the runtime reads them.
 *
 * The generator emits the same values as the Python package's catalog_data.py, as JSON literals:
 * Python tuples become arrays, dicts become objects in declared order. Everything is read-only;
 * the runtime never changes the data it is given.
 */

/** Any JSON value. */
export type Json = null | boolean | number | string | readonly Json[] | JsonObject;
/** A JSON object. */
export type JsonObject = { readonly [key: string]: Json };

/** A predicate over the context (generator/runtime/predicates.py reads the same shape). */
export type Predicate = JsonObject;

/** A piece of spec text: plain text, or [text, predicate] when the piece is conditional. */
export type TextPiece = string | readonly [string, Predicate];
/** Spec text: pieces joined when their predicates hold. */
export type Text = readonly TextPiece[];

export interface SelectionData {
  readonly provider_sets: { readonly [name: string]: readonly string[] };
  readonly model_sets: { readonly [name: string]: readonly string[] };
  readonly model_predicates: { readonly [name: string]: JsonObject };
}

/** One family's selection rule: [family name, predicate]. */
export type RuleData = readonly [string, Predicate];

export interface FamilyData {
  readonly description: string;
  readonly labels: { readonly [label: string]: number };
  readonly tools: readonly string[];
  readonly use_native_tools: boolean;
  /** Context fields a family's native lists depend on (their cache key). */
  readonly context_fields: readonly string[];
  /** Tests on list fields that are keyed by outcome instead of value. */
  readonly context_tests: readonly JsonObject[];
}

export interface ParameterData {
  readonly name: string;
  readonly required: boolean;
  readonly instruction: Text;
  readonly description: Text;
  /** Example value shown in the XML usage block; null when the spec gives none. */
  readonly usage: string | null;
  readonly schema: JsonObject;
  readonly dependencies: readonly string[];
  readonly requires: Predicate | null;
}

export interface SpecData {
  readonly id: string;
  readonly spec: string;
  readonly name: string;
  readonly description: Text;
  readonly requires: Predicate | null;
  readonly strict: boolean;
  readonly parameters: readonly ParameterData[];
  /** The tool's host-facing fields, present only when its spec sets them (MCP tools/list). */
  readonly title?: string;
  readonly annotations?: { readonly [hint: string]: boolean };
  readonly output_schema?: Json;
}

export interface PlaceholderData {
  readonly field: string;
  readonly default: Json;
  /** Value-to-text table: [when, text] pairs; the first whose `when` equals the value gives the text. */
  readonly map: readonly (readonly [Json, string])[];
}

export interface RoutingRuleData {
  readonly providers: readonly string[];
  readonly when: Predicate | null;
  readonly format: string;
}

export interface RoutingData {
  readonly default: string;
  readonly rules: readonly RoutingRuleData[];
}

export interface McpData {
  readonly separator: string;
  readonly name_max_length: number;
}

export interface SubagentsData {
  readonly name_prefix: string;
  readonly max_length: number;
}

/** Everything catalog_data.ts exports, as one object (what the runtime's catalog is built from). */
export interface CatalogData {
  readonly selection: SelectionData;
  readonly rules: readonly RuleData[];
  readonly precondition: Predicate | null;
  readonly fallback: string;
  readonly families: { readonly [family: string]: FamilyData };
  readonly specs: { readonly [key: string]: SpecData };
  readonly familySpecs: { readonly [family: string]: readonly string[] };
  readonly placeholders: { readonly [name: string]: PlaceholderData };
  readonly routing: RoutingData;
  readonly mcp: McpData;
  readonly subagents: SubagentsData;
}
