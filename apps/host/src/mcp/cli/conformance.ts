import { z } from "zod";
import { messageOf } from "../../core/errors.js";
import { openBridge, type CliBridge } from "./bridge.js";
import { exampleArgs } from "./example-args.js";

/**
 * `npm run mcp -- conformance <url>`: the client side of the MCP conformance suite (`@modelcontextprotocol/conformance
 * client --command …`). It builds one bridge with Seam's own code — hub, supervisor, transport, client surface, tool
 * runtime — connects to `url` and does what the scenario in MCP_CONFORMANCE_SCENARIO asks: by default list the tools
 * and call each with arguments that satisfy its schema (elicitations answered with the schema's defaults). The suite
 * judges what reached its server; the exit code says whether every step worked here.
 */
export interface ConformanceRun {
  url: string;
  scenario: string;
  /** MCP_CONFORMANCE_CONTEXT: scenario data (client credentials, …) as JSON. */
  context?: string;
  timeoutMs?: number;
}

interface Out { write(text: string): unknown }

const Context = z.record(z.string(), z.unknown());

export async function runConformance(run: ConformanceRun, err: Out): Promise<number> {
  let context: Record<string, unknown> = {};
  if (run.context) {
    const parsed = Context.safeParse(safeJson(run.context));
    if (!parsed.success) {
      err.write("MCP_CONFORMANCE_CONTEXT is not a JSON object.\n");
      return 2;
    }
    context = parsed.data;
  }
  void context;
  const timeoutMs = run.timeoutMs ?? 20_000;
  let bridge: CliBridge;
  try {
    bridge = await openBridge({ name: "conformance", transport: { type: "http", url: run.url, headers: {} }, startupTimeoutMs: timeoutMs, callTimeoutMs: timeoutMs });
  } catch (error) {
    err.write(`Could not connect to ${run.url}: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    const steps = plan(run.scenario, bridge);
    let failed = 0;
    for (const step of steps) {
      const outcome = await bridge.call(step.tool, step.args);
      err.write(`${step.tool}: ${outcome.status}${outcome.status === "ok" ? "" : ` — ${outcome.rendered}`}\n`);
      if (outcome.status !== "ok") failed++;
    }
    err.write(`${run.scenario}: ${bridge.tools().length} tools listed, ${steps.length} called, ${failed} failed.\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await bridge.close();
  }
}

interface Step { tool: string; args: Record<string, unknown> }

/** What the scenario asks of a client, in tool calls. */
function plan(scenario: string, bridge: CliBridge): Step[] {
  const tools = bridge.tools();
  if (scenario === "json-schema-2020-12-preservation") {
    // Echo the focal tool's input schema, as Seam keeps it, back through the echo tool: the suite compares it with
    // what its server sent (SEP-1613: nothing stripped or altered).
    const echo = tools.find((t) => isSchemaEcho(t.inputSchema));
    const focal = tools.find((t) => t !== echo);
    return echo && focal ? [{ tool: echo.rawName, args: { schema: focal.inputSchema } }] : [];
  }
  return tools.map((t) => ({ tool: t.rawName, args: exampleArgs(t.inputSchema) }));
}

const isSchemaEcho = (schema: Record<string, unknown>) => {
  const props = schema.properties as Record<string, { type?: unknown }> | undefined;
  return props?.schema?.type === "object" && Object.keys(props).length === 1;
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
