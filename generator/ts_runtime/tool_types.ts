/**
 * Value types shared by the parser, the dispatch table and handlers (mirrors tool_types.py).
 */

/** One tool call read from a model's reply (text path) or built from a native call.
 *
 * `partial` is true while the call is still streaming. Native calls also carry `id` (the
 * provider's call id) and JSON values in `params`; text-path values are strings. `error` is set
 * when the call could not be read: `params` is then empty and no handler must run. */
export interface ToolUse {
  readonly name: string;
  readonly params: { readonly [name: string]: unknown };
  readonly partial: boolean;
  readonly id: string;
  readonly error: string | null;
}

/** A ToolUse with the defaults of the Python dataclass for what is not given. */
export function toolUse(
  name: string,
  params: { readonly [name: string]: unknown } = {},
  partial = false,
  id = "",
  error: string | null = null,
): ToolUse {
  return { name, params, partial, id, error };
}

/** What a handler gives back to the model; `isError` marks a tool error, `denied` a refused call. */
export interface ToolResult {
  readonly content: string;
  readonly isError: boolean;
  readonly denied: boolean;
}

export const ToolResult = {
  ok(content: string): ToolResult {
    return { content, isError: false, denied: false };
  },
  error(message: string): ToolResult {
    return { content: message, isError: true, denied: false };
  },
  deny(message = "The user denied this operation."): ToolResult {
    return { content: message, isError: false, denied: true };
  },
};
