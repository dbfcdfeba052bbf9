import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createModel, type ChatMessage, type LlmEvent, type ToolSpec } from "../../src/llm/llm.js";
import { collect, secretsOf, settings, startScriptedModel, TEST_KEY, textOf, type ScriptedModel, type ScriptInput } from "./helpers.js";

// The Anthropic provider warns that the unknown model id "scripted" gets a 4096 max_tokens cap.
globalThis.AI_SDK_LOG_WARNINGS = false;

const SCRIPT: ScriptInput = {
  name: "adapter",
  turns: [
    {
      match: "read",
      steps: [
        {
          text: ["Let me ", "read ", "it."],
          toolCalls: [{ name: "read_file", args: { path: "README.md", range: { from: 1, to: 5 }, note: "split \"across\" chunks" } }],
          usage: { inputTokens: 42, outputTokens: 7 },
        },
        { text: ["The file says: ", "{{tool_result}}"] },
      ],
    },
    { match: "count", steps: [{ text: ["one", " two", " three", " four"], delayMs: 5 }] },
    { match: "bogus", steps: [{ toolCalls: [{ name: "no_such_tool", args: { a: 1 } }, { name: "read_file", args: { wrong: true } }] }] },
    { match: "broken", steps: [{ toolCalls: [{ name: "read_file", rawArgs: '{"path": "a.md"' }] }] },
    { match: "twice", steps: [{ toolCalls: [{ name: "read_file", args: { path: "a.md" } }, { name: "list_dir", args: { path: "." } }] }] },
  ],
};

const TOOLS: ToolSpec[] = [
  { name: "read_file", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "list_dir", description: "List a directory", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
];

let server: ScriptedModel;
beforeAll(async () => { server = await startScriptedModel({ scripts: [SCRIPT] }); });
afterAll(() => server.close());
beforeEach(() => server.reset());

type Body = { messages: Record<string, unknown>[]; tools?: Record<string, unknown>[]; system?: unknown };
const bodies = () => server.requests().map((r) => r.body as Body);
const call = (events: LlmEvent[]) => events.find((e): e is Extract<LlmEvent, { type: "tool_call" }> => e.type === "tool_call");

describe.each(["openai-compatible", "anthropic"] as const)("%s adapter against the scripted model", (provider) => {
  const model = () => createModel(settings(provider, server.baseURL), secretsOf({ SCRIPTED_API_KEY: TEST_KEY }));
  const signal = () => new AbortController().signal;

  test("streams text deltas in order and finishes with stop", async () => {
    const events = await collect(model().stream({ messages: [{ role: "user", text: "count please" }], tools: [], signal: signal() }));
    expect(textOf(events)).toEqual(["one", " two", " three", " four"]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    expect(events.filter((e) => e.type === "finish")).toHaveLength(1);
  });

  test("parses a tool call split across chunks and reports usage", async () => {
    const events = await collect(model().stream({ system: "You are Seam.", messages: [{ role: "user", text: "please read the readme" }], tools: TOOLS, signal: signal() }));
    expect(textOf(events).join("")).toBe("Let me read it.");
    expect(call(events)).toEqual({
      type: "tool_call",
      id: expect.any(String),
      name: "read_file",
      args: { path: "README.md", range: { from: 1, to: 5 }, note: "split \"across\" chunks" },
    });
    expect(events.at(-1)).toEqual({ type: "finish", reason: "tool_calls", usage: { inputTokens: 42, outputTokens: 7 } });
    // Tools are sent with their JSON schema, unchanged.
    const [body] = bodies();
    const sent = provider === "anthropic" ? body?.tools?.[0] : (body?.tools?.[0]?.function as Record<string, unknown>);
    expect(sent).toMatchObject({ name: "read_file", description: "Read a file", [provider === "anthropic" ? "input_schema" : "parameters"]: TOOLS[0]?.inputSchema });
  });

  test("emits every tool call of a step", async () => {
    const events = await collect(model().stream({ messages: [{ role: "user", text: "twice" }], tools: TOOLS, signal: signal() }));
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && [e.name, e.args])).toEqual([
      ["read_file", { path: "a.md" }],
      ["list_dir", { path: "." }],
    ]);
  });

  test("unknown tools and schema-invalid args pass through for the host's tool runtime to answer", async () => {
    const events = await collect(model().stream({ messages: [{ role: "user", text: "bogus" }], tools: TOOLS, signal: signal() }));
    expect(events.filter((e) => e.type === "tool_call").map((e) => e.type === "tool_call" && [e.name, e.args])).toEqual([
      ["no_such_tool", { a: 1 }],
      ["read_file", { wrong: true }],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool_calls" });
  });

  test("arguments that are not JSON pass through as their text, so the tool runtime answers invalid_arguments", async () => {
    const events = await collect(model().stream({ messages: [{ role: "user", text: "broken json" }], tools: TOOLS, signal: signal() }));
    expect(call(events)).toMatchObject({ name: "read_file", args: '{"path": "a.md"' });
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool_calls" });
  });

  test("continues after a tool result with the history converted correctly", async () => {
    const first = await collect(model().stream({ messages: [{ role: "user", text: "please read the readme" }], tools: TOOLS, signal: signal() }));
    const c = call(first);
    if (!c) throw new Error("no tool call");
    const history: ChatMessage[] = [
      { role: "user", text: "please read the readme" },
      { role: "assistant", text: "Let me read it.", toolCalls: [{ id: c.id, name: c.name, args: c.args }] },
      { role: "tool", callId: c.id, name: c.name, output: "# Seam\nAn agent workbench.", isError: false },
    ];
    const second = await collect(model().stream({ system: "You are Seam.", messages: history, tools: TOOLS, signal: signal() }));
    expect(textOf(second).join("")).toBe("The file says: # Seam\nAn agent workbench.");
    expect(second.at(-1)).toMatchObject({ type: "finish", reason: "stop" });

    // Read the recorded bodies over HTTP, the way an e2e test would.
    const recorded = (await (await fetch(`${server.url}/__requests`)).json()) as { body: Body }[];
    expect(recorded).toHaveLength(2);
    const body = recorded[1]?.body;
    if (provider === "openai-compatible") {
      expect(body?.messages).toEqual([
        { role: "system", content: "You are Seam." },
        { role: "user", content: "please read the readme" },
        { role: "assistant", content: "Let me read it.", tool_calls: [{ id: c.id, type: "function", function: { name: "read_file", arguments: JSON.stringify(c.args) } }] },
        { role: "tool", tool_call_id: c.id, content: "# Seam\nAn agent workbench." },
      ]);
    } else {
      expect(body?.system).toEqual([{ type: "text", text: "You are Seam." }]);
      expect(body?.messages).toEqual([
        { role: "user", content: [{ type: "text", text: "please read the readme" }] },
        { role: "assistant", content: [{ type: "text", text: "Let me read it." }, { type: "tool_use", id: c.id, name: "read_file", input: c.args }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: c.id, content: "# Seam\nAn agent workbench." }] },
      ]);
    }
  });

  test("sends failed tool results as errors and closes interrupted tool calls", async () => {
    const history: ChatMessage[] = [
      { role: "user", text: "please read the readme" },
      { role: "assistant", text: "", toolCalls: [{ id: "c1", name: "read_file", args: { path: "x" } }, { id: "c2", name: "list_dir", args: {} }] },
      { role: "tool", callId: "c1", name: "read_file", output: "ENOENT: x", isError: true },
      { role: "user", text: "count please" },
    ];
    const events = await collect(model().stream({ messages: history, tools: TOOLS, signal: signal() }));
    expect(textOf(events).join("")).toBe("one two three four");
    const body = bodies()[0];
    if (provider === "openai-compatible") {
      expect(body?.messages.filter((m) => m.role === "tool")).toEqual([
        { role: "tool", tool_call_id: "c1", content: "ENOENT: x" },
        { role: "tool", tool_call_id: "c2", content: expect.stringContaining("interrupted") },
      ]);
    } else {
      expect(body?.messages[2]).toMatchObject({
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "ENOENT: x", is_error: true },
          { type: "tool_result", tool_use_id: "c2", is_error: true },
          { type: "text", text: "count please" },
        ],
      });
    }
  });

  test("the key is sent in the provider's auth header", async () => {
    await collect(model().stream({ messages: [{ role: "user", text: "count" }], tools: [], signal: signal() }));
    expect(server.requests()[0]?.auth).toBe(provider === "anthropic" ? "x-api-key" : "authorization");
  });
});
