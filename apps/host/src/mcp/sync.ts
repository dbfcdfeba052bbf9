import type { Client } from "@modelcontextprotocol/client";
import { formatIssues } from "@seam/shared";
import { z } from "zod";
import { HostError, messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { ToolDef } from "../agent/tool.js";
import { publicToolName } from "./naming.js";

/** One tool of a generation, as validated from the wire. */
export interface McpTool {
  publicName: string;
  rawName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
  /** `execution.taskSupport: "required"`: the bridge cannot call it (MCP-6). */
  taskRequired: boolean;
  /** `annotations.readOnlyHint: true`: the tool's effect is `read` instead of `external` (PERM-1). */
  readOnlyHint: boolean;
}

export interface FetchLimits {
  maxPages: number;
  maxTools: number;
  /** Per tools/list request. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export const DEFAULT_LIMITS: Omit<FetchLimits, "timeoutMs"> = { maxPages: 100, maxTools: 2_000 };
export const MAX_DESCRIPTION_CHARS = 8_192;

const SchemaObject = z.looseObject({
  type: z.literal("object", { error: 'must be a JSON schema with type "object"' }),
  properties: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
});
const WireTool = z.looseObject({
  name: z.string().min(1, "name must not be empty").max(1_024),
  description: z.string().optional(),
  inputSchema: SchemaObject,
  outputSchema: SchemaObject.optional(),
  execution: z.looseObject({ taskSupport: z.string().optional() }).optional(),
  // Hints only decide the tool's effect (PERM-1); malformed hints are ignored rather than dropping the tool.
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional().catch(undefined),
});
const WirePage = z.looseObject({
  tools: z.array(z.unknown(), { error: "tools must be an array" }),
  nextCursor: z.string().max(4_096).optional(),
});

const issues = (error: z.ZodError) => formatIssues(error, { root: "(root)" });

/**
 * Phase one of a sync (MCP-4): every page of tools/list, each tool validated, raw names unique. Throws a
 * HostError on any failure; nothing is registered here.
 */
export async function fetchTools(client: Client, serverName: string, limits: FetchLimits): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= limits.maxPages) throw fail(`tools/list has more than ${limits.maxPages} pages`);
    let wire: unknown;
    const params = cursor === undefined ? {} : { cursor };
    try {
      wire = await withChildSignal(limits.signal, (signal) => client.request({ method: "tools/list", params }, z.unknown(), { timeout: limits.timeoutMs, signal }));
    } catch (error) {
      throw new HostError("unavailable:mcp", `tools/list page ${page + 1} failed: ${messageOf(error)}`, { reason: "tools_list_failed" }, { cause: error });
    }
    const parsed = WirePage.safeParse(wire);
    if (!parsed.success) throw fail(`tools/list page ${page + 1} is malformed: ${issues(parsed.error)}`);
    for (const [i, item] of parsed.data.tools.entries()) {
      const tool = WireTool.safeParse(item);
      if (!tool.success) {
        const name = typeof (item as { name?: unknown })?.name === "string" ? ` "${(item as { name: string }).name}"` : "";
        throw fail(`tool ${i + 1}${name} on tools/list page ${page + 1} is invalid: ${issues(tool.error)}`);
      }
      tools.push(toMcpTool(serverName, tool.data));
      if (tools.length > limits.maxTools) throw fail(`the server lists more than ${limits.maxTools} tools`);
    }
    cursor = parsed.data.nextCursor;
    if (cursor === undefined) break;
    if (seenCursors.has(cursor)) throw fail(`tools/list repeated the cursor ${JSON.stringify(cursor.slice(0, 80))}`);
    seenCursors.add(cursor);
  }
  assertUnique(tools);
  return tools;
}

function toMcpTool(serverName: string, wire: z.infer<typeof WireTool>): McpTool {
  const description = wire.description ?? "";
  return {
    publicName: publicToolName(serverName, wire.name),
    rawName: wire.name,
    description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…` : description,
    inputSchema: wire.inputSchema,
    outputSchema: wire.outputSchema ?? null,
    taskRequired: wire.execution?.taskSupport === "required",
    readOnlyHint: wire.annotations?.readOnlyHint === true,
  };
}

function assertUnique(tools: McpTool[]) {
  const raw = new Set<string>();
  const pub = new Set<string>();
  for (const t of tools) {
    if (raw.has(t.rawName)) throw fail(`the server lists the tool "${t.rawName}" more than once`);
    if (pub.has(t.publicName)) throw fail(`two tools map to the public name ${t.publicName}`);
    raw.add(t.rawName);
    pub.add(t.publicName);
  }
}

/**
 * Runs `fn` with a signal that follows `parent` but is its own: the SDK never removes the abort listener
 * it adds to a request's signal, so a long-lived signal would collect one per request.
 */
export async function withChildSignal<T>(parent: AbortSignal | undefined, fn: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!parent) return fn(undefined);
  const child = new AbortController();
  const forward = () => child.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener("abort", forward, { once: true });
  try {
    return await fn(child.signal);
  } finally {
    parent.removeEventListener("abort", forward);
  }
}

const fail = (message: string) => new HostError("unavailable:mcp", message, { reason: "invalid_tool_list" });

/**
 * The registered generation of one server's tools (MCP-4 phase two). A swap disposes the previous
 * generation and registers the whole next one; if any registration throws, everything of the new one is
 * unregistered again, so the model sees a whole generation or none.
 */
export class ToolGenerations {
  /** Increments on every successful swap. */
  number = 0;
  /** The last listing that was swapped in (registered or not). */
  tools: McpTool[] = [];
  private disposers: Disposer[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly toDef: (tool: McpTool, generation: number) => ToolDef,
    /** The server's policy (MCP-8): a tool it hides is never registered (invisible to the model and tool_search). */
    private readonly visible: (tool: McpTool) => boolean = () => true,
  ) {}

  /** The listing in `tools` is registered right now (vacuously true for an empty one). */
  registered = false;

  /** Returns the conflict that made the swap fail closed, or undefined when the generation is live. */
  swap(tools: McpTool[]): HostError | undefined {
    this.unregister();
    const next = this.number + 1;
    const done: Disposer[] = [];
    try {
      for (const tool of tools) if (this.visible(tool)) done.push(this.registry.register(this.toDef(tool, next)));
    } catch (error) {
      for (const dispose of done.reverse()) void dispose();
      this.tools = tools;
      return new HostError("conflict:mcp", `Tool sync failed closed, no tools of this server are registered: ${messageOf(error)}`, { reason: "tool_name_conflict" }, { cause: error });
    }
    this.number = next;
    this.tools = tools;
    this.disposers = done;
    this.registered = true;
    return undefined;
  }

  /**
   * Registers the current listing again under the same generation number, after the policy changed (MCP-8):
   * calls in flight keep running. A listing that is not registered (outage exhaustion) stays unregistered.
   * Fails closed like `swap`.
   */
  resync(): HostError | undefined {
    if (!this.registered) return undefined;
    this.unregister();
    const done: Disposer[] = [];
    try {
      for (const tool of this.tools) if (this.visible(tool)) done.push(this.registry.register(this.toDef(tool, this.number)));
    } catch (error) {
      for (const dispose of done.reverse()) void dispose();
      return new HostError("conflict:mcp", `Tool resync failed closed, no tools of this server are registered: ${messageOf(error)}`, { reason: "tool_name_conflict" }, { cause: error });
    }
    this.disposers = done;
    this.registered = true;
    return undefined;
  }

  /** Unregisters the current generation (outage exhaustion, dispose). The listing stays for the view. */
  unregister(): void {
    const disposers = this.disposers;
    this.disposers = [];
    this.registered = false;
    for (const dispose of disposers.reverse()) void dispose();
  }
}

/** Runs tasks one at a time in order; a failing task does not stop the chain. */
export class SerialChain {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(() => undefined, () => undefined);
    return result;
  }

  /** Resolves when everything queued so far has settled. */
  drain(): Promise<void> {
    return this.tail;
  }
}
