/**
 * Request size with deferred tools (CTX-3): 60 MCP tools with GitHub-like schemas (4–7 documented
 * properties each) built by the MCP bridge's own `mcpToolDef`, plus the built-in-sized `read_file`.
 * Lines:
 *
 * - **full (baseline)**: every tool sent, as under the budget.
 * - **deferred**: the MCP tools left out, `tool_search` sent instead.
 * - **deferred + 6 loaded**: after one tool_search call loaded six of them.
 *
 * For each: bytes of the tools array in the OpenAI wire shape (`{type: "function", function: {name,
 * description, parameters}}`), estimated tokens (gpt-tokenizer, as the context meter counts them) and the
 * ratio to the baseline; then the p50 cost of answering "which tools does the next step send". Asserts nothing.
 */
import { createLoadedTools } from "../apps/host/src/agent/loaded-tools.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { toolSearchTool } from "../apps/host/src/agent/tool-search.js";
import { createToolSet, type ToolBudget, type ToolSelection } from "../apps/host/src/agent/tool-set.js";
import { defineTool } from "../apps/host/src/agent/tool.js";
import { mcpToolDef } from "../apps/host/src/mcp/tool.js";
import type { Store } from "../apps/host/src/persistence/store.js";
import { z } from "zod";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const VERBS = ["create", "list", "get", "update", "delete", "search"];
const OBJECTS = ["issue", "pull_request", "branch", "commit", "file", "label", "milestone", "release", "comment", "workflow"];

const prop = (type: string, description: string) => ({ type, description });
const registry = createToolRegistry();
let n = 0;
for (const verb of VERBS) {
  for (const object of OBJECTS) {
    const properties: Record<string, unknown> = {
      owner: prop("string", "Repository owner (user or organization)"),
      repo: prop("string", "Repository name"),
    };
    if (verb !== "list" && verb !== "search") properties[`${object}_number`] = prop("number", `The ${object.replace("_", " ")} number`);
    if (verb === "create" || verb === "update") {
      properties.title = prop("string", `Title of the ${object.replace("_", " ")}`);
      properties.body = prop("string", "Body text in GitHub-flavored Markdown");
      properties.labels = { type: "array", items: { type: "string" }, description: "Labels to apply" };
    }
    if (verb === "list" || verb === "search") {
      properties.page = prop("number", "Page number for pagination (min 1)");
      properties.perPage = prop("number", "Results per page for pagination (min 1, max 100)");
      properties.query = prop("string", "Search query using GitHub search syntax");
    }
    const rawName = `${verb}_${object}`;
    registry.register(mcpToolDef("github", {
      publicName: `mcp__github__${rawName}`, rawName, outputSchema: null, taskRequired: false, readOnlyHint: verb === "get" || verb === "list" || verb === "search",
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${object.replace("_", " ")}s in a GitHub repository. Requires a token with repo scope.`,
      inputSchema: { type: "object", properties, required: ["owner", "repo"] },
    }, 1, 60_000, async () => ({ content: [] })));
    n++;
  }
}
registry.register(defineTool({
  name: "read_file", description: "Read a text file of the workspace, with line numbers.", capability: "workspace",
  input: z.object({ path: z.string().describe("Path relative to the workspace"), offset: z.number().int().optional(), limit: z.number().int().optional() }),
  run: async () => ({ canonical: null, rendered: "" }),
}));

const store = { items: { list: async () => [] } } as unknown as Store;
const budget: ToolBudget = { maxTools: 1_000, maxPercent: 100, window: 128_000 };
const tools = createToolSet({ registry, loaded: createLoadedTools({ items: store.items }), budget: async () => budget });
registry.register(toolSearchTool({ tools }));

const wireBytes = (s: ToolSelection) =>
  Buffer.byteLength(JSON.stringify(s.specs.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }))));

async function timed(session: string): Promise<number> {
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    await tools.next(session);
    samples.push(performance.now() - t);
  }
  return percentile(samples, 50);
}

const full = await tools.next("s");
const fullTime = await timed("s");
budget.maxTools = 40;
budget.maxPercent = 10;
const deferred = await tools.next("s");
const deferredTime = await timed("s");
const search = registry.get("tool_search")!;
await search.run({ query: "issue" }, { signal: new AbortController().signal, sessionId: "s", workspace: "/", callId: "c" });
const loaded = await tools.next("s");
const loadedTime = await timed("s");

const base = { bytes: wireBytes(full), tokens: full.tokens };
console.log(`deferred tools: ${n} MCP tools + read_file; budget 40 tools or 10 % of a 128k window`);
for (const [label, s, time] of [["full (baseline)", full, fullTime], ["deferred (tool_search)", deferred, deferredTime], ["deferred + 6 loaded", loaded, loadedTime]] as const) {
  const bytes = wireBytes(s);
  console.log(
    `  ${label.padEnd(24)} ${String(s.tools.length).padStart(2)} tools  ${bytes.toLocaleString("en-US").padStart(7)} B (${(bytes / base.bytes).toFixed(3)}×)  ` +
    `${s.tokens.toLocaleString("en-US").padStart(6)} tokens (${(s.tokens / base.tokens).toFixed(3)}×)  next() p50 ${ms(time)}`,
  );
}
console.log(`  full / deferred: ${(base.bytes / wireBytes(deferred)).toFixed(1)}× the bytes, ${(base.tokens / deferred.tokens).toFixed(1)}× the tokens`);
