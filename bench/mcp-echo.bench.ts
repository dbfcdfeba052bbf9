/**
 * Tool-call overhead through the MCP bridge (SPEC §9): `echo` on @modelcontextprotocol/server-everything,
 * called through Seam (tool runtime → registry → the bridge's ToolDef: ajv argument check, generation check,
 * tools/call, result validation and rendering) versus the bare SDK Client (callTool) in the same run.
 *
 * 1. stdio, the real setup: each pipeline talks to its own server-everything process (a stdio server serves
 *    one client); Seam's through the host's subprocess transport, the baseline through the SDK's
 *    StdioClientTransport. A third line is the bridge's ToolDef called directly, without the tool runtime.
 * 2. in-process: the same server code (server-everything's createServer) over the SDK's InMemoryTransport,
 *    which leaves only the CPU cost of each layer — no pipes, no process scheduling.
 *
 * Rounds alternate between pipelines so drift hits all of them. Prints per-call p50/p99 and ratios; asserts
 * nothing. BENCH_CALLS changes the sample size.
 */
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import type { McpServerConfigInput } from "@seam/shared";
import { createScope } from "../apps/host/src/core/scope.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createMcpHub } from "../apps/host/src/mcp/hub.js";
import type { TransportFactory } from "../apps/host/src/mcp/transport.js";
import { ms, percentile } from "./stats.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);
const ROUND = 200;
const WARMUP = 300;
const require = createRequire(import.meta.url);
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const { createServer } = (await import(require.resolve("@modelcontextprotocol/server-everything/dist/server/index.js"))) as {
  createServer: () => { server: { connect(t: InMemoryTransport): Promise<void> }; cleanup(): void };
};

type Call = (i: number) => Promise<void>;
interface Pipeline { name: string; call: Call; close(): Promise<void> }

const expectEcho = (who: string, i: number, text: unknown) => {
  if (text !== `Echo: m${i}`) throw new Error(`${who}: unexpected result ${String(text)}`);
};

async function inMemoryServer(): Promise<{ client: InMemoryTransport; cleanup(): void }> {
  const { server, cleanup } = createServer();
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { client, cleanup };
}

async function bare(name: string, transport: StdioClientTransport | InMemoryTransport, cleanup = () => {}): Promise<Pipeline> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return {
    name,
    call: async (i) => {
      const r = await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
      expectEcho(name, i, (r.content as { text?: string }[])[0]?.text);
    },
    close: async () => {
      await client.close();
      cleanup();
    },
  };
}

/** Seam: a hub with one server; `runtime` false calls the registered ToolDef directly. */
async function seam(config: McpServerConfigInput, transport?: TransportFactory): Promise<{ runtime: Pipeline; bridge: Pipeline }> {
  const scope = createScope("bench");
  const registry = createToolRegistry();
  const hub = createMcpHub(scope, { registry, log: createLog("bench-mcp", () => {}), transport });
  await hub.start(config);
  const runtime = createToolRuntime({ registry });
  const signal = new AbortController().signal;
  const tool = `mcp__${config.name}__echo`;
  return {
    runtime: {
      name: "seam: runtime + bridge",
      call: async (i) => {
        const outcome = await runtime.invoke({ sessionId: "bench", workspace: process.cwd(), callId: `c${i}`, name: tool, args: { message: `m${i}` }, signal });
        expectEcho("seam", i, outcome.rendered);
      },
      close: () => scope.dispose(),
    },
    bridge: {
      name: "bridge ToolDef alone",
      call: async (i) => {
        // Looked up per call, like the runtime does: a tools/list_changed swaps in a new generation.
        const def = registry.get(tool)!;
        const result = await def.run({ message: `m${i}` }, { signal: new AbortController().signal, sessionId: "bench", workspace: process.cwd(), callId: `d${i}` });
        expectEcho("bridge", i, result.rendered);
      },
      close: async () => {},
    },
  };
}

async function timed(call: Call, from: number, n: number, into: number[]) {
  for (let i = from; i < from + n; i++) {
    const t = performance.now();
    await call(i);
    into.push(performance.now() - t);
  }
}

async function measure(title: string, pipelines: Pipeline[]) {
  try {
    for (let k = 0; k < WARMUP; k += 50) for (const p of pipelines) await timed(p.call, k, 50, []);
    const samples = pipelines.map(() => [] as number[]);
    for (let done = 0, round = 0; done < CALLS; done += ROUND, round++) {
      const n = Math.min(ROUND, CALLS - done);
      // Rotate which pipeline goes first.
      for (let j = 0; j < pipelines.length; j++) {
        const k = (j + round) % pipelines.length;
        await timed(pipelines[k]!.call, done, n, samples[k]!);
      }
    }
    const p50 = samples.map((s) => percentile(s, 50));
    const p99 = samples.map((s) => percentile(s, 99));
    console.log(`\n${title} (${CALLS} calls each, rounds of ${ROUND}, ${WARMUP} warm-up)`);
    pipelines.forEach((p, k) => console.log(`  ${p.name.padEnd(30)} p50 ${ms(p50[k]!)}  p99 ${ms(p99[k]!)}`));
    for (let k = 1; k < pipelines.length; k++) {
      console.log(`  ratio ${pipelines[k]!.name} / baseline`.padEnd(48) + `p50 ${(p50[k]! / p50[0]!).toFixed(2)}×  p99 ${(p99[k]! / p99[0]!).toFixed(2)}×`);
    }
  } finally {
    for (const p of pipelines) await p.close();
  }
}

const stdio = await seam({ name: "everything", transport: { type: "stdio", command: process.execPath, args: [everything, "stdio"] } });
await measure("MCP echo over stdio, per call", [
  await bare("bare SDK Client (baseline)", new StdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" })),
  stdio.runtime,
  stdio.bridge,
]);

const baseline = await inMemoryServer();
const bridged = await inMemoryServer();
// The in-memory pair stands in for a stdio connection: the supervisor treats it like one.
const memory: TransportFactory = () => ({
  kind: "stdio",
  transport: bridged.client,
  stderrTail: () => "",
  pid: () => undefined,
  terminate: async () => {
    await bridged.client.close();
    return true;
  },
});
const inProcess = await seam({ name: "everything", transport: { type: "stdio", command: "in-memory" } }, memory);
await measure("MCP echo in-process (InMemoryTransport, same server code), per call", [
  await bare("bare SDK Client (baseline)", baseline.client, baseline.cleanup),
  inProcess.runtime,
  inProcess.bridge,
]);
bridged.cleanup();
