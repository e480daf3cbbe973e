import assert from "node:assert/strict";
import { test } from "node:test";

import {
  AsyncHandlerError,
  Bindings,
  Coordinator,
  MAX_DYNAMIC_HANDLERS,
  MissingHandlersError,
  SharedToolHandler,
  type ToolHandler,
} from "../dispatch.js";
import { ToolResult, toolUse, type ToolUse } from "../tool_types.js";

const BINDINGS = new Bindings({
  handlers: {
    read_file: { class_name: "ReadHandler", takes_validator: true, shares: null },
    write_to_file: { class_name: "WriteHandler", takes_validator: false, shares: null },
    replace_in_file: { class_name: "WriteHandler", takes_validator: false, shares: "write_to_file" },
    focus_chain: null,
    use_mcp_tool: { class_name: "McpHandler", takes_validator: false, shares: null },
    use_subagents: { class_name: "SubagentHandler", takes_validator: false, shares: null },
  },
  mcpTool: "use_mcp_tool",
  subagentsTool: "use_subagents",
  mcpSeparator: "0mcp0",
  subagentPrefix: "use_subagent_",
  subagentMaxLength: 64,
  labels: {
    read_file: "[read_file for '{path}']",
    use_mcp_tool: "[use_mcp_tool for '{server_name}/{tool_name}']",
  },
});

class TestCoordinator extends Coordinator {
  static override bindings = BINDINGS;
}

function echo(className: string) {
  return class implements ToolHandler {
    readonly validator: unknown;
    constructor(validator?: unknown) {
      this.validator = validator;
    }
    execute(_config: unknown, block: ToolUse): ToolResult {
      return ToolResult.ok(`${className}:${block.name}:${JSON.stringify(block.params)}`);
    }
  };
}

const NAMESPACE = {
  ReadHandler: echo("ReadHandler"),
  WriteHandler: echo("WriteHandler"),
  McpHandler: echo("McpHandler"),
  SubagentHandler: echo("SubagentHandler"),
};

test("static, shared, MCP and subagent names route to their handlers", () => {
  const coordinator = TestCoordinator.fromNamespace(NAMESPACE, { validator: "v" });
  const run = (name: string) => coordinator.execute(null, toolUse(name, { a: 1 }))?.content;
  assert.equal(run("read_file"), 'ReadHandler:read_file:{"a":1}');
  assert.equal(run("replace_in_file"), 'WriteHandler:replace_in_file:{"a":1}');
  assert.equal(run("srv0mcp0tool"), 'McpHandler:srv0mcp0tool:{"a":1}');
  assert.equal(run("use_subagent_docs"), 'SubagentHandler:use_subagent_docs:{"a":1}');
  assert.deepEqual(coordinator.names(), ["read_file", "write_to_file", "replace_in_file", "use_mcp_tool", "use_subagents"]);
  assert.ok(coordinator.getHandler("replace_in_file") instanceof SharedToolHandler);
  const shared = coordinator.getHandler("replace_in_file") as SharedToolHandler;
  assert.equal(shared.inner, coordinator.getHandler("write_to_file"));
  assert.equal((coordinator.getHandler("read_file") as unknown as { validator: unknown }).validator, "v");
});

test("unknown names and unreadable calls are error results, never thrown", () => {
  const coordinator = TestCoordinator.fromNamespace(NAMESPACE);
  assert.deepEqual(coordinator.execute(null, toolUse("nope")), ToolResult.error("No handler registered for tool: nope"));
  assert.deepEqual(coordinator.execute(null, toolUse("focus_chain")), ToolResult.error("No handler registered for tool: focus_chain"));
  const broken = toolUse("read_file", {}, false, "", "bad arguments");
  assert.deepEqual(coordinator.execute(null, broken), ToolResult.error("bad arguments"));
  assert.equal(coordinator.execute(null, toolUse("read_file", {}, true, "", "x")), null);
  assert.equal(coordinator.has("use_subagent_" + "x".repeat(52)), false);
  assert.equal(coordinator.has("use_subagent_"), false);
  assert.equal(coordinator.has("srv0mcp0x"), true);
});

test("missing classes are named together, unless lenient", () => {
  assert.throws(
    () => TestCoordinator.fromNamespace({ ReadHandler: NAMESPACE.ReadHandler }),
    (error: unknown) =>
      error instanceof MissingHandlersError &&
      error.message ===
        "3 handler class(es) missing from the implementation namespace:\n" +
          "  WriteHandler (for write_to_file, replace_in_file)\n" +
          "  McpHandler (for use_mcp_tool)\n" +
          "  SubagentHandler (for use_subagents)",
  );
  const lenient = TestCoordinator.fromNamespace(new Map([["ReadHandler", NAMESPACE.ReadHandler]]), { lenient: true });
  assert.deepEqual(lenient.names(), ["read_file"]);
  assert.equal(lenient.getHandler("use_subagent_x"), null);
});

test("a handler that throws becomes an error result naming the tool", async () => {
  const coordinator = new TestCoordinator();
  coordinator.register({
    name: "read_file",
    execute() {
      throw new RangeError("too far");
    },
  });
  const expected = ToolResult.error("Error executing tool read_file: RangeError: too far");
  assert.deepEqual(coordinator.execute(null, toolUse("read_file")), expected);
  assert.deepEqual(await coordinator.executeAsync(null, toolUse("read_file")), expected);
  assert.throws(() => coordinator.register({ name: "", execute: () => ToolResult.ok("") }), TypeError);
});

test("async handlers on the sync path throw AsyncHandlerError; executeAsync awaits them and bounds the wait", async () => {
  const asyncRead = { name: "read_file", execute: async () => ToolResult.ok("later") };
  assert.throws(() => new TestCoordinator().register(asyncRead), (error: unknown) => {
    assert.ok(error instanceof AsyncHandlerError && error instanceof TypeError);
    assert.deepEqual(error.handlers, ["handler.execute (read_file)"]);
    assert.match(error.message, /asynchronous: true/);
    return true;
  });
  assert.throws(() => TestCoordinator.fromHandlers({ read_file: asyncRead }), AsyncHandlerError);
  class ReadHandler {
    async execute(): Promise<ToolResult> {
      return ToolResult.ok("read");
    }
  }
  assert.throws(
    () => TestCoordinator.fromNamespace({ ReadHandler }, { lenient: true }),
    /async handlers bound for sync execution: ReadHandler\.execute \(read_file\)/,
  );
  const bound = TestCoordinator.fromNamespace({ ReadHandler }, { lenient: true, asynchronous: true });
  assert.throws(() => bound.execute(null, toolUse("read_file")), /Coordinator\.execute is sync/);
  assert.deepEqual(await bound.executeAsync(null, toolUse("read_file")), ToolResult.ok("read"));

  const coordinator = new TestCoordinator({ asynchronous: true });
  coordinator.register(asyncRead);
  coordinator.register({ name: "write_to_file", execute: () => new Promise<ToolResult>(() => undefined) });
  assert.deepEqual(await coordinator.executeAsync(null, toolUse("read_file")), ToolResult.ok("later"));
  assert.deepEqual(
    await coordinator.executeAsync(null, toolUse("write_to_file"), { timeout: 0.01 }),
    ToolResult.error("Error executing tool write_to_file: no result within 0.01 s"),
  );
  // a sync method returning a promise cannot be seen before it runs: it throws when it returns one
  const sync = new TestCoordinator();
  sync.register({ name: "write_to_file", execute: () => Promise.resolve(ToolResult.ok("late")) as unknown as ToolResult });
  assert.throws(() => sync.execute(null, toolUse("write_to_file")), /handler\.execute \(write_to_file\)/);
});

test("partial blocks go to handlePartialBlock and give null", async () => {
  const seen: string[] = [];
  const coordinator = new TestCoordinator();
  coordinator.register({
    name: "read_file",
    execute: () => ToolResult.ok(""),
    handlePartialBlock: (_config, block) => {
      seen.push(String(block.params["path"]));
    },
  });
  assert.equal(coordinator.execute(null, toolUse("read_file", { path: "a" }, true, "")), null);
  assert.equal(await coordinator.executeAsync(null, toolUse("read_file", { path: "b" }, true, "")), null);
  assert.equal(coordinator.execute(null, toolUse("nope", {}, true, "")), null);
  assert.deepEqual(seen, ["a", "b"]);
});

test("dynamic subagent handlers are cached, least recently used first out", () => {
  const coordinator = TestCoordinator.fromNamespace(NAMESPACE);
  const first = coordinator.getHandler("use_subagent_0");
  assert.equal(coordinator.getHandler("use_subagent_0"), first);
  for (let i = 1; i <= MAX_DYNAMIC_HANDLERS; i++) coordinator.getHandler(`use_subagent_${i}`);
  assert.notEqual(coordinator.getHandler("use_subagent_0"), first);
});

test("fromHandlers registers handler objects by tool name, sharing one object", () => {
  const writer = { name: "write_to_file", execute: (_c: unknown, b: ToolUse) => ToolResult.ok(b.name) };
  const coordinator = TestCoordinator.fromHandlers({ write_to_file: writer, replace_in_file: writer });
  assert.equal(coordinator.getHandler("write_to_file"), writer);
  assert.equal(coordinator.execute(null, toolUse("replace_in_file"))?.content, "replace_in_file");
  assert.equal((coordinator.getHandler("replace_in_file") as SharedToolHandler).name, "replace_in_file");
});

test("labels: static templates, MCP names, subagent names, anything else", () => {
  assert.equal(BINDINGS.label(toolUse("read_file", { path: "src/a.ts" })), "[read_file for 'src/a.ts']");
  assert.equal(BINDINGS.label(toolUse("read_file", {})), "[read_file for '\u2026']");
  assert.equal(BINDINGS.label(toolUse("git0mcp0_x_a_2f_b")), "[use_mcp_tool for 'git/a/b']");
  assert.equal(BINDINGS.label(toolUse("use_subagent_x", { prompt: "look  around" })), "[use_subagent_x for 'look around']");
  assert.equal(BINDINGS.label(toolUse("other")), "[other]");
  assert.deepEqual(BINDINGS.table()[2], { id: "replace_in_file", handler_class: "WriteHandler", takes_validator: false, shares: "write_to_file" });
});

test("a handler's exception is named by its class, as Python names it", () => {
  class QuotaExceeded extends Error {}
  const coordinator = new TestCoordinator();
  coordinator.register({
    name: "read_file",
    execute() {
      throw new QuotaExceeded("");
    },
  });
  assert.deepEqual(coordinator.execute(null, toolUse("read_file")), ToolResult.error("Error executing tool read_file: QuotaExceeded"));
});
