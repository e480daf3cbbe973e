/**
 * The shapes of what the package sends and reads in each native format, as structural types.
 *
 * They are written here, not imported: the package depends on no provider SDK, at run time or in
 * its types. Each shape is no wider than the SDK's own parameter type, so `nativeTools`,
 * `resultMessages` and `Offer.answer` values go straight into Anthropic's `messages.create`,
 * OpenAI's `chat.completions.create` and `responses.create`, Gemini's `generateContent` and
 * Bedrock's `ConverseCommand` with no cast (tests/ts/sdk_host.ts proves it against the real SDKs).
 * Arrays and objects are mutable because the SDKs take `Array<...>`; every value returned is a
 * fresh copy the caller owns. What a response must look like for `readCalls` is read-only and
 * names only what is read, so the SDKs' response objects and parsed JSON bodies both fit.
 *
 * A format given as a literal (`"anthropic"`) selects its shapes; a format known only as a
 * `string` gets the union of all of them (and an unknown name throws at run time, as in Python).
 */

/** A JSON value as the package builds it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonRecord;
/** A JSON object. */
export interface JsonRecord {
  [key: string]: JsonValue;
}

// ---- tools ------------------------------------------------------------------------------------

/** A tool's parameters: a JSON Schema of type object (every format's builder makes the root one). */
export interface ObjectSchema {
  type: "object";
  [keyword: string]: JsonValue;
}

/** Anthropic Messages: an entry of `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectSchema;
  /** On the last tool when the context asks for prompt caching. */
  cache_control?: { type: "ephemeral" };
}

/** OpenAI Chat Completions: an entry of `tools`. */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; strict: boolean; parameters: ObjectSchema };
}

/** OpenAI Responses: an entry of `tools`. */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: ObjectSchema;
  strict: boolean;
}

/**
 * Gemini: an entry of a tool's `functionDeclarations`. `parameters` is Gemini's OpenAPI subset
 * (`"type": "OBJECT"`, ...); it is typed as a JSON object because the SDK types `type` with its
 * own enum, which no structural type can name.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters: JsonRecord;
}

/** Bedrock Converse: an entry of `toolConfig.tools`. */
export interface BedrockTool {
  toolSpec: { name: string; description: string; inputSchema: { json: ObjectSchema } };
}

/** The `tools` entry of each format, by format name. */
export interface ToolEntryByFormat {
  anthropic: AnthropicTool;
  "openai-chat": OpenAIChatTool;
  "openai-responses": OpenAIResponsesTool;
  gemini: GeminiFunctionDeclaration;
  "bedrock-converse": BedrockTool;
}

/** The native formats toolgen models (the keys of `FORMATS`). */
export type FormatName = keyof ToolEntryByFormat;

/** A format's shape from a by-format map: one format's for a literal name, the union for a `string`. */
type ByFormat<Map extends Record<FormatName, unknown>, F> = F extends FormatName ? Map[F] : Map[FormatName];

/** The `tools` entry of format `F`. */
export type ToolEntry<F extends string = FormatName> = ByFormat<ToolEntryByFormat, F>;

// ---- tool results -----------------------------------------------------------------------------

/** Anthropic: a `tool_result` content block. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** Gemini: a `functionResponse` part (`id` only when the call had one). */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string } | { error: string } };
}

/** Bedrock Converse: a `toolResult` content block. */
export interface BedrockToolResult {
  toolResult: { toolUseId: string; content: { text: string }[]; status: "success" | "error" };
}

/** What `resultMessage` makes for one call, by format. */
export interface ResultElementByFormat {
  anthropic: AnthropicToolResult;
  "openai-chat": { role: "tool"; tool_call_id: string; content: string };
  "openai-responses": { type: "function_call_output"; call_id: string; output: string };
  gemini: GeminiFunctionResponsePart;
  "bedrock-converse": BedrockToolResult;
}

/**
 * What `resultMessages` appends to the conversation, by format: one user message holding every
 * result (Anthropic, Gemini, Bedrock), or the elements themselves (the OpenAI formats).
 */
export interface ResultMessageByFormat {
  anthropic: { role: "user"; content: AnthropicToolResult[] };
  "openai-chat": ResultElementByFormat["openai-chat"];
  "openai-responses": ResultElementByFormat["openai-responses"];
  gemini: { role: "user"; parts: GeminiFunctionResponsePart[] };
  "bedrock-converse": { role: "user"; content: BedrockToolResult[] };
}

/** `resultMessage`'s value in format `F`. */
export type ResultElement<F extends string = FormatName> = ByFormat<ResultElementByFormat, F>;
/** An element of `resultMessages`' value in format `F`. */
export type ResultMessage<F extends string = FormatName> = ByFormat<ResultMessageByFormat, F>;

// ---- responses --------------------------------------------------------------------------------

/** The call list itself, which `readCalls` takes in every format. */
export type CallList = readonly unknown[];

interface ChatMessage {
  readonly tool_calls?: readonly unknown[] | null | undefined;
}
interface ChatChoice {
  readonly message?: ChatMessage | undefined;
  readonly finish_reason?: string | null | undefined;
}
interface GeminiContent {
  readonly parts?: readonly unknown[] | undefined;
}
interface GeminiCandidate {
  readonly content?: GeminiContent | undefined;
  readonly finishReason?: string | undefined;
}
interface BedrockMessage {
  readonly content?: readonly unknown[] | undefined;
}
interface BedrockOutput {
  readonly message?: BedrockMessage | undefined;
}

/**
 * What `readCalls` reads, by format: the whole response (the SDK's object or the parsed JSON
 * body), or any node on the way to the call list (a Chat choice or message, a Gemini candidate or
 * content, a Bedrock output or message), or the call list itself, as the runtime enters the path
 * wherever it starts. Only what is read is named; optional members say `| undefined` so that SDK
 * types declared that way fit under `exactOptionalPropertyTypes`.
 */
export interface ResponseByFormat {
  anthropic: { readonly content: readonly unknown[]; readonly stop_reason?: string | null | undefined } | CallList;
  "openai-chat": { readonly choices: readonly ChatChoice[] } | ChatChoice | ChatMessage | CallList;
  "openai-responses":
    | {
        readonly output: readonly unknown[];
        readonly incomplete_details?: { readonly reason?: string | null | undefined } | null | undefined;
      }
    | CallList;
  gemini: { readonly candidates?: readonly GeminiCandidate[] | undefined } | GeminiCandidate | GeminiContent | CallList;
  "bedrock-converse":
    | { readonly output?: BedrockOutput | undefined; readonly stopReason?: string | undefined }
    | BedrockOutput
    | BedrockMessage
    | CallList;
}

/** A response `readCalls` takes in format `F`: its shape for a known name, anything for a `string`. */
export type ResponseOf<F extends string> = F extends FormatName ? ResponseByFormat[F] : unknown;
