/**
 * An example handler module for the generated TypeScript package: one handler per tool the specs
 * bind one to, collected in a HandlerMap so that `tsc --strict --noEmit` fails when one is missing
 * (tests/test_ts_handlers.py checks both: this file passes, a copy without one handler fails).
 *
 * Handlers get the call with typed arguments (`block.params.path` is a string for read_file) and
 * answer with a ToolResult. read_file's handler is async, so the coordinator is bound for async
 * (`asynchronous: true`) and answers through `offer.answerAsync` (or `coordinator.executeAsync`);
 * binding it for the sync path would throw AsyncHandlerError. No cast anywhere.
 */

import {
  Coordinator,
  ToolResult,
  type HandlerMap,
  type ToolHandlerFor,
  type ToolUse,
} from "../../../generated-ts/index.js";

/** What every handler here receives from the host (its own per-request settings). */
export interface Config {
  readonly cwd: string;
}

/** A handler that reports which tool ran and with what; a real one would act on the arguments. */
function echo<K extends keyof HandlerMap<Config>>(tool: K): ToolHandlerFor<K, Config> {
  return {
    name: tool,
    execute: (config: Config, block: ToolUse) =>
      ToolResult.ok(`${tool} in ${config.cwd}: ${JSON.stringify(block.params)}`),
  };
}

/** read_file, written out: its arguments are typed from the specs. */
const readFile: ToolHandlerFor<"read_file", Config> = {
  name: "read_file",
  async execute(config, block) {
    const path: string = block.params.path;
    return path ? ToolResult.ok(`would read ${config.cwd}/${path}`) : ToolResult.error("no path given");
  },
  handlePartialBlock(_config, block) {
    return block.params.path; // a preview of the path while it streams
  },
};

/** One object may serve several tools (write_to_file, replace_in_file, new_rule share a class). */
const writer = {
  name: "write_to_file",
  execute: (_config: Config, block: ToolUse) => ToolResult.ok(`${block.name} done`),
};

export const HANDLERS: HandlerMap<Config> = {
  ask_followup_question: echo("ask_followup_question"),
  attempt_completion: echo("attempt_completion"),
  execute_command: echo("execute_command"),
  replace_in_file: writer,
  read_file: readFile,
  write_to_file: writer,
  search_files: echo("search_files"),
  list_files: echo("list_files"),
  list_code_definition_names: echo("list_code_definition_names"),
  browser_action: echo("browser_action"),
  use_mcp_tool: echo("use_mcp_tool"),
  access_mcp_resource: echo("access_mcp_resource"),
  load_mcp_documentation: echo("load_mcp_documentation"),
  new_task: echo("new_task"),
  plan_mode_respond: echo("plan_mode_respond"),
  act_mode_respond: echo("act_mode_respond"),
  web_fetch: echo("web_fetch"),
  web_search: echo("web_search"),
  condense: echo("condense"),
  summarize_task: echo("summarize_task"),
  report_bug: echo("report_bug"),
  new_rule: writer,
  apply_patch: echo("apply_patch"),
  generate_explanation: echo("generate_explanation"),
  use_skill: echo("use_skill"),
  use_subagents: echo("use_subagents"),
};

export const coordinator = Coordinator.fromHandlers(HANDLERS, { asynchronous: true });
