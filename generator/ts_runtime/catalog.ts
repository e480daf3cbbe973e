/**
 * The resolved catalog at run time: selection, requirements, text and routing.
 *
 * Mirrors generator/runtime/catalog.py. A `Catalog` is built from data (the generated
 * catalog_data.ts, or hand-made data of the same shape) and the package's context coercion.
 * `selectFamily` picks a family for a provider and model, `enabledTools` lists the tools a family
 * offers in a context, and `resolveText` turns spec text into what the model sees.
 * Run-time MCP and subagent tools (dynamicVariants) live in dynamic_variants.ts.
 */

import type { CatalogData, FamilyData, ParameterData, PlaceholderData, Predicate, Text } from "./data.js";
import { Selection, evaluate, fieldValue, holdsQuietly, normalize, select } from "./predicates.js";
import { PLACEHOLDER_RE } from "./prompt_blocks.js";
import { mergeTools } from "./variants.js";
import type { Variant } from "./variants.js";
import { pyNumber, pyRepr } from "./pyspell.js";

/** Turns what a caller passes as a context (a Context, a plain object, null) into a checked Context. */
export type AsContext<C> = (value: unknown) => C;

export class Catalog<C extends object = { readonly [field: string]: unknown }> {
  readonly data: CatalogData;
  readonly selection: Selection;
  readonly asContext: AsContext<C>;
  /** Each prompt family's resolved spec variants, in prompt order. */
  readonly variants: ReadonlyMap<string, readonly Variant[]>;
  /** Prompt sections per context key (prompt.ts). */
  readonly sections = new Map<string, string>();

  constructor(data: CatalogData, asContext: AsContext<C>) {
    this.data = data;
    this.asContext = asContext;
    this.selection = new Selection(data.selection);
    const variants = new Map<string, readonly Variant[]>();
    for (const [family, keys] of Object.entries(data.familySpecs)) {
      variants.set(
        family,
        keys.map((key) => data.specs[key] as Variant),
      );
    }
    this.variants = variants;
  }

  get families(): { readonly [family: string]: FamilyData } {
    return this.data.families;
  }

  /** A known prompt family's name; throws a KeyError-like Error otherwise. */
  knownFamily(family: string): string {
    if (!this.variants.has(family)) {
      const known = [...this.variants.keys()].join(", ");
      throw new KeyError(`unknown family ${pyRepr(String(family))}; known: ${known}`);
    }
    return family;
  }

  /** The family whose selection rule holds first (in selection order), else the fallback. */
  selectFamily(context: unknown): string {
    const checked = this.asContext(context);
    const data = this.data;
    return select(data.rules, checked, this.selection, data.fallback, data.precondition);
  }

  /** Whether a context requirement holds (null means none); one that cannot be evaluated does not. */
  holds(predicate: Predicate | null, context: unknown): boolean {
    if (predicate === null) return true;
    return holdsQuietly(predicate, this.asContext(context), this.selection);
  }

  /** The family's spec variants whose requirements hold, in prompt order (copies: change them freely). */
  enabledVariants(family: string, context: unknown): Variant[] {
    return structuredCopy([...this.enabled(family, context)]);
  }

  /** enabledVariants without the copy: the catalog's own data, for reading only. */
  enabled(family: string, context: unknown): readonly Variant[] {
    const checked = this.asContext(context);
    const variants = this.variants.get(this.knownFamily(family)) ?? [];
    return variants.filter((v) => this.holds(v.requires, checked));
  }

  /** The tool ids a family offers in this context, in prompt order. */
  enabledTools(family: string, context: unknown): string[] {
    return this.enabled(family, context).map((v) => v.id);
  }

  /** Static enabled tools, then subagent tools, then MCP tools (the modelled system's order). */
  assemble(family: string, context: unknown, extraVariants: readonly Variant[] = []): Variant[] {
    const subagent = extraVariants.filter((v) => v.input_schema === undefined || v.input_schema === null);
    const mcp = extraVariants.filter((v) => v.input_schema !== undefined && v.input_schema !== null);
    return mergeTools(this.enabled(family, context), subagent, mcp);
  }

  /** Parameters whose requirements hold and, with `enabledIds`, whose dependencies are enabled. */
  visibleParameters(variant: Variant, context: unknown, enabledIds: readonly string[] | null = null): ParameterData[] {
    const checked = this.asContext(context);
    return variant.parameters.filter(
      (p) =>
        this.holds(p.requires, checked) &&
        (enabledIds === null || p.dependencies.every((dep) => enabledIds.includes(dep))),
    );
  }

  /** Replace every {{NAME}} with its context value (or the placeholder's documented default). */
  resolvePlaceholders(text: string, context: unknown): string {
    const checked = this.asContext(context);
    const placeholders = this.data.placeholders;
    return text.replace(PLACEHOLDER_RE, (whole: string, name: string) => {
      const spec: PlaceholderData | undefined = Object.hasOwn(placeholders, name) ? placeholders[name] : undefined;
      if (spec === undefined) return whole;
      let raw = fieldValue(checked, spec.field);
      if (raw === null) raw = spec.default;
      for (const [when, shown] of spec.map) {
        if (sameTyped(when, raw)) return shown;
      }
      return asText(spec.map.length > 0 ? spec.default : raw);
    });
  }

  /** Join the text pieces whose conditions hold, then fill placeholders.
   *
   * With `context` null, only unconditional pieces are kept and placeholders stay as written. */
  resolveText(pieces: Text, context: unknown, placeholders = true): string {
    const checked = context === null || context === undefined ? null : this.asContext(context);
    let text = "";
    for (const piece of pieces) {
      if (typeof piece === "string") text += piece;
      else if (checked !== null && this.holds(piece[1], checked)) text += piece[0];
    }
    if (checked === null || !placeholders) return text;
    return this.resolvePlaceholders(text, checked);
  }

  /** The native format a provider's requests use (toolgen.yaml `routing`); provider ids are
   * normalized as selection's `provider_in` does, and anything but a string is no provider. */
  route(providerId: unknown, modelId: unknown = null): string {
    const provider = typeof providerId === "string" ? normalize(providerId) : null;
    const context = { provider_id: providerId ?? null, model_id: modelId ?? null };
    for (const rule of this.data.routing.rules) {
      if (provider === null || !rule.providers.includes(provider)) continue;
      if (rule.when === null) return rule.format;
      try {
        if (evaluate(rule.when, context, this.selection)) return rule.format;
      } catch (error) {
        if (error instanceof Error && error.name === "MatcherError") continue;
        throw error;
      }
    }
    return this.data.routing.default;
  }
}

/** Python's KeyError, for an unknown family (its message is the key's repr, as Python shows it). */
export class KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "KeyError";
  }
}

/** Python's `when == raw and type(when) is type(raw)` for JSON values. */
function sameTyped(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How a value reads in prompt text: JavaScript-style (true, 1.5, a,b), as the modelled system shows it. */
export function asText(value: unknown): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return value.map(asText).join(",");
  // Python writes an integral float as an int here (1e22 -> 10000000000000000000000).
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : pyNumber(value);
  if (value === null || value === undefined) return "None";
  return String(value);
}

/** A deep copy of JSON-like data (what the Python runtime's copier gives). */
function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
