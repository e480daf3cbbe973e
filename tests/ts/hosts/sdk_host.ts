/**
 * A host module that passes the package's values straight into the real provider SDKs, with no
 * cast anywhere (tests/test_ts_sdk_types.py greps this file for one): tools from `nativeTools`,
 * calls from `readCalls` on the SDK's own response object, results from `resultMessages`, and the
 * same through an `Offer`, for Anthropic's `messages.create`, OpenAI's `chat.completions.create`
 * and `responses.create`, Gemini's `generateContent` and Bedrock's `ConverseCommand`. It is
 * compiled, never run, under `--strict` plus the flags strict hosts add; the package test compiles
 * it again against the package installed from `npm pack` (the import below is rewritten).
 */

import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI, type Content } from "@google/genai";
import { BedrockRuntimeClient, ConverseCommand, type Message } from "@aws-sdk/client-bedrock-runtime";
import {
  Context,
  Coordinator,
  Offer,
  ToolResult,
  nativeTools,
  readCalls,
  resultMessages,
  type HandlerMap,
  type ReadFileArgs,
  type ToolHandlerFor,
  type ToolUse,
} from "../../../generated-ts/index.js";

/** What the handlers receive from this host. */
interface Config {
  readonly cwd: string;
}

/** read_file's handler: its arguments are ReadFileArgs, checked against the specs. */
const readFile: ToolHandlerFor<"read_file", Config> = {
  name: "read_file",
  execute(config, block) {
    const args: ReadFileArgs = block.params;
    const path: string = args.path;
    return ToolResult.ok(`would read ${config.cwd}/${path}`);
  },
};

function other(name: string) {
  return { name, execute: (_config: Config, block: ToolUse) => ToolResult.ok(`${block.name} ran`) };
}

const handlers: HandlerMap<Config> = {
  ask_followup_question: other("ask_followup_question"),
  attempt_completion: other("attempt_completion"),
  execute_command: other("execute_command"),
  replace_in_file: other("replace_in_file"),
  read_file: readFile,
  write_to_file: other("write_to_file"),
  search_files: other("search_files"),
  list_files: other("list_files"),
  list_code_definition_names: other("list_code_definition_names"),
  browser_action: other("browser_action"),
  use_mcp_tool: other("use_mcp_tool"),
  access_mcp_resource: other("access_mcp_resource"),
  load_mcp_documentation: other("load_mcp_documentation"),
  new_task: other("new_task"),
  plan_mode_respond: other("plan_mode_respond"),
  act_mode_respond: other("act_mode_respond"),
  web_fetch: other("web_fetch"),
  web_search: other("web_search"),
  condense: other("condense"),
  summarize_task: other("summarize_task"),
  report_bug: other("report_bug"),
  new_rule: other("new_rule"),
  apply_patch: other("apply_patch"),
  generate_explanation: other("generate_explanation"),
  use_skill: other("use_skill"),
  use_subagents: other("use_subagents"),
};

const coordinator = Coordinator.fromHandlers(handlers, { asynchronous: true });
const config: Config = { cwd: "/work" };
const FAMILY = "gpt-5-native";

/** Every call answered, in order (a call the coordinator does not answer gets an error result). */
async function answer(calls: ToolUse[]): Promise<[ToolUse, ToolResult][]> {
  const answers: [ToolUse, ToolResult][] = [];
  for (const use of calls) {
    const result = await coordinator.executeAsync(config, use);
    answers.push([use, result ?? ToolResult.error(`no answer for ${use.name}`)]);
  }
  return answers;
}

export async function anthropic(client: Anthropic, context: Context): Promise<Anthropic.Message> {
  const tools = nativeTools(FAMILY, context, { format: "anthropic" });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Read README.md" }];
  const reply = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages });
  messages.push({ role: "assistant", content: reply.content });
  messages.push(...resultMessages(await answer(readCalls(reply, "anthropic")), "anthropic"));
  return client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages });
}

export async function anthropicOffer(client: Anthropic, context: Context): Promise<Anthropic.Message> {
  const offer = new Offer(FAMILY, context, { format: "anthropic" });
  const tools = offer.tools();
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Read README.md" }];
  const reply = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages });
  messages.push({ role: "assistant", content: reply.content });
  messages.push(...((await offer.answerAsync(coordinator, config, reply)) ?? []));
  return client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, tools, messages });
}

export async function openaiChat(client: OpenAI, context: Context): Promise<OpenAI.ChatCompletion> {
  const tools = nativeTools(FAMILY, context, { format: "openai-chat" });
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Read README.md" }];
  const reply = await client.chat.completions.create({ model: "gpt-5", tools, messages });
  const message = reply.choices[0]?.message;
  if (message !== undefined) messages.push(message);
  messages.push(...resultMessages(await answer(readCalls(reply, "openai-chat")), "openai-chat"));
  return client.chat.completions.create({ model: "gpt-5", tools, messages });
}

export async function openaiResponses(client: OpenAI, context: Context): Promise<OpenAI.Responses.Response> {
  const offer = new Offer(FAMILY, context, { format: "openai-responses" });
  const tools = nativeTools(FAMILY, context, { format: "openai-responses" });
  const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Read README.md" }];
  const reply = await client.responses.create({ model: "gpt-5", tools, input });
  input.push(...resultMessages(await answer(readCalls(reply, "openai-responses")), "openai-responses"));
  const again = await client.responses.create({ model: "gpt-5", tools: offer.tools(), input, previous_response_id: reply.id });
  const more = await offer.answerAsync(coordinator, config, again);
  return client.responses.create({ model: "gpt-5", tools, input: more ?? [], previous_response_id: again.id });
}

export async function gemini(client: GoogleGenAI, context: Context): Promise<string | undefined> {
  const functionDeclarations = nativeTools(FAMILY, context, { format: "gemini" });
  const contents: Content[] = [{ role: "user", parts: [{ text: "Read README.md" }] }];
  const request = { model: "gemini-2.5-pro", contents, config: { tools: [{ functionDeclarations }] } };
  const reply = await client.models.generateContent(request);
  const content = reply.candidates?.[0]?.content;
  if (content !== undefined) contents.push(content);
  contents.push(...resultMessages(await answer(readCalls(reply, "gemini")), "gemini"));
  return (await client.models.generateContent(request)).text;
}

export async function bedrock(client: BedrockRuntimeClient, context: Context): Promise<string | undefined> {
  const tools = nativeTools(FAMILY, context, { format: "bedrock-converse" });
  const messages: Message[] = [{ role: "user", content: [{ text: "Read README.md" }] }];
  const modelId = "anthropic.claude-sonnet-4-5";
  const reply = await client.send(new ConverseCommand({ modelId, messages, toolConfig: { tools } }));
  const message = reply.output?.message;
  if (message !== undefined) messages.push(message);
  messages.push(...resultMessages(await answer(readCalls(reply, "bedrock-converse")), "bedrock-converse"));
  const again = await client.send(new ConverseCommand({ modelId, messages, toolConfig: { tools } }));
  return again.stopReason;
}

/** A format known only at run time: the values are the union of every format's shapes. */
export function routed(context: Context): number {
  return nativeTools(FAMILY, context).length;
}
