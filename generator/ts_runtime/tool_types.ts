/**
 * Value types shared by the parser, the dispatch table and handlers (mirrors tool_types.py).
 *
 * No imports: this module is copied verbatim into the generated package's _runtime/, so the
 * runtime and the projects that vendor it use the same definitions.
 */

/** Argument values of a call: strings on the text path, JSON values on the native path. */
export type ToolParams = Readonly<Record<string, unknown>>;

/**
 * One tool call read from a model's reply (text path) or built from a native call.
 *
 * `partial` is true while the call is still streaming. Native calls (`readCalls`) carry `id`,
 * the provider's call id the result must quote. `error` is set when the call could not be read:
 * `params` is then empty, no handler must run, and the caller answers with
 * `ToolResult.error(use.error)`. `P` and `N` narrow the params and the name for typed handlers
 * (the generated args.ts: `ToolUse<ReadFileArgs, "read_file">`).
 */
export interface ToolUse<P extends object = ToolParams, N extends string = string> {
  readonly name: N;
  readonly params: P;
  readonly partial: boolean;
  readonly id: string;
  readonly error: string | null;
}

/** A ToolUse with the Python dataclass's defaults (and its field order) for what is not given. */
export function toolUse(
  name: string,
  params: ToolParams = {},
  partial = false,
  id = "",
  error: string | null = null,
): ToolUse {
  return Object.freeze({ name, params, partial, id, error });
}

/**
 * What a handler gives back to the model.
 *
 * `isError` marks a tool error (the model made a mistake or the tool failed); `denied` marks a
 * call the user or a hook refused. Both still carry text for the model.
 */
export class ToolResult {
  readonly content: string;
  readonly isError: boolean;
  readonly denied: boolean;

  constructor(content: string, isError = false, denied = false) {
    this.content = content;
    this.isError = isError;
    this.denied = denied;
    Object.freeze(this);
  }

  static ok(content: string): ToolResult {
    return new ToolResult(content);
  }

  static error(message: string): ToolResult {
    return new ToolResult(message, true);
  }

  static deny(message = "The user denied this operation."): ToolResult {
    return new ToolResult(message, false, true);
  }
}

/** What the coordinator needs from a handler; `handlePartialBlock` is optional. */
export interface ToolHandler<Config = unknown, Use extends ToolUse = ToolUse> {
  readonly name?: string;
  execute(config: Config, block: Use): ToolResult | Promise<ToolResult>;
  handlePartialBlock?(config: Config, block: Use): unknown;
}
