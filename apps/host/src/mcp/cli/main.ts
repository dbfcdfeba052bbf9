#!/usr/bin/env node
/**
 * `npm run mcp -- <command>`: one MCP server through Seam's own code, from a terminal.
 * - `list-tools <url | command [args…]>`: the public tool names the model would see, one per line (summary on stderr);
 * - `call <tool> <json> <url | command [args…]>`: one tool call through the bridge and the tool runtime; prints what
 *   the model would read (`--json`: the canonical result);
 * - `conformance <url>`: the client of the MCP conformance suite (MCP_CONFORMANCE_SCENARIO says what to do).
 * Exit codes: 0 done, 1 the server or the call failed, 2 bad usage.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { z } from "zod";
import { formatIssues, McpServerConfig, type McpServerConfigInput, type McpValue } from "@seam/shared";
import { messageOf } from "../../core/errors.js";
import { createScope } from "../../core/scope.js";
import { DEFAULT_LIMITS, fetchTools } from "../sync.js";
import { createTransport, type TransportHandle } from "../transport.js";
import { openBridge } from "./bridge.js";
import { runConformance } from "./conformance.js";

const USAGE = `Usage: npm run mcp -- list-tools <url | command [args…]> [options]
       npm run mcp -- call <tool> <json arguments> <url | command [args…]> [options]
       npm run mcp -- conformance <url>

list-tools   prints the public tool names (mcp__<server>__<tool>) an MCP server would get in Seam
call         calls one tool (raw or public name) through Seam's bridge and prints what the model would read;
             a request for input (elicitation) is answered with the form's defaults
conformance  the client for the MCP conformance suite: MCP_CONFORMANCE_SCENARIO names the scenario,
             MCP_CONFORMANCE_CONTEXT carries its data

  <url>                  an http(s) Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp
  <command [args…]>      a stdio server, e.g. node ./server.js --stdio

Options (before the target, or after it; put the command after -- to pass these flags to it instead):
  --name <server>        the server name, which is part of every tool name (default: server)
  --timeout <ms>         how long to wait for connecting and listing (default: 30000)
  --header "Name: value" an HTTP header (repeatable)
  --bearer-env <VAR>     send Authorization: Bearer <value of VAR>
  --env NAME=VALUE       an environment variable for a stdio server (repeatable)
  --cwd <dir>            the working directory of a stdio server
  --json                 list-tools: one JSON object per tool (publicName, rawName, description);
                         call: the canonical result as JSON`;

class UsageError extends Error {}

export type Parsed =
  | { command: "list-tools"; config: McpServerConfigInput; timeoutMs: number; json: boolean }
  | { command: "call"; tool: string; args: Record<string, unknown>; config: McpServerConfigInput; timeoutMs: number; json: boolean }
  | { command: "conformance"; url: string };

const CallArgs = z.record(z.string(), z.unknown());

export function parseArgs(argv: string[]): Parsed {
  const [command, ...rest0] = argv;
  if (command === "conformance") {
    const [url, ...extra] = rest0;
    if (!url || !/^https?:\/\//i.test(url) || extra.length > 0) throw new UsageError("conformance wants exactly one http(s) URL.");
    return { command, url };
  }
  if (command !== "list-tools" && command !== "call") throw new UsageError(command ? `Unknown command "${command}".` : "Missing command.");
  let rest = rest0;
  let call: { tool: string; args: Record<string, unknown> } | undefined;
  if (command === "call") {
    const [tool, json, ...more] = rest0;
    if (!tool || json === undefined) throw new UsageError("call wants a tool name and its arguments as a JSON object, then the server.");
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`The arguments are not JSON: ${messageOf(error)}.`);
    }
    const args = CallArgs.safeParse(value);
    if (!args.success) throw new UsageError(`The arguments must be a JSON object, like '{"message": "hi"}'.`);
    call = { tool, args: args.data };
    rest = more;
  }
  const target: string[] = [];
  const headers: Record<string, McpValue> = {};
  const env: Record<string, McpValue> = {};
  let name = "server";
  let timeoutMs = 30_000;
  let bearer: string | undefined;
  let cwd: string | undefined;
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value.`);
      return v;
    };
    if (arg === "--") {
      target.push(...rest.slice(i + 1));
      break;
    }
    if (arg === "--name") name = value();
    else if (arg === "--timeout") timeoutMs = Number(value());
    else if (arg === "--bearer-env") bearer = value();
    else if (arg === "--cwd") cwd = value();
    else if (arg === "--json") json = true;
    else if (arg === "--header") {
      const h = value();
      const colon = h.indexOf(":");
      if (colon <= 0) throw new UsageError(`--header wants "Name: value", got ${JSON.stringify(h)}.`);
      headers[h.slice(0, colon).trim()] = { value: h.slice(colon + 1).trim() };
    } else if (arg === "--env") {
      const e = value();
      const eq = e.indexOf("=");
      if (eq <= 0) throw new UsageError(`--env wants NAME=VALUE, got ${JSON.stringify(e)}.`);
      env[e.slice(0, eq)] = { value: e.slice(eq + 1) };
    } else if (arg.startsWith("--") && target.length === 0) throw new UsageError(`Unknown option ${arg}.`);
    else target.push(arg);
  }
  if (target.length === 0) throw new UsageError("Give a URL or a command to start.");
  if (!Number.isFinite(timeoutMs) || timeoutMs < 1_000) throw new UsageError("--timeout must be at least 1000 ms.");
  const [first, ...args] = target as [string, ...string[]];
  const transport = /^https?:\/\//i.test(first)
    ? { type: "http" as const, url: first, headers, ...(bearer ? { bearerTokenEnv: bearer } : {}) }
    : { type: "stdio" as const, command: first, args, env, ...(cwd ? { cwd } : {}) };
  const config = { name, transport, startupTimeoutMs: timeoutMs, callTimeoutMs: timeoutMs };
  return call ? { command: "call", ...call, config, timeoutMs, json } : { command: "list-tools", config, timeoutMs, json };
}

interface Out { write(text: string): unknown }

export async function main(argv: string[], out: Out = process.stdout, err: Out = process.stderr): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.command === "conformance") {
    const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
    if (!scenario) {
      err.write("conformance needs MCP_CONFORMANCE_SCENARIO (the conformance suite sets it).\n");
      return 2;
    }
    return runConformance({ url: parsed.url, scenario, context: process.env.MCP_CONFORMANCE_CONTEXT }, err);
  }
  const checked = McpServerConfig.safeParse(parsed.config);
  if (!checked.success) {
    err.write(`${formatIssues(checked.error, { root: "config", separator: "\n" })}\n`);
    return 2;
  }
  const config = checked.data;
  if (parsed.command === "call") return callOne(config, parsed.tool, parsed.args, parsed.json, out, err);
  const scope = createScope("mcp-cli", { slowDisposeMs: Infinity });
  const signal = AbortSignal.timeout(parsed.timeoutMs);
  let handle: TransportHandle | undefined;
  const client = new Client({ name: "seam-mcp-cli", version: "0.0.0" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
  try {
    handle = createTransport(scope, config);
    await client.connect(handle.transport, { signal, timeout: parsed.timeoutMs });
    const tools = await fetchTools(client, config.name, { ...DEFAULT_LIMITS, timeoutMs: parsed.timeoutMs, signal });
    for (const t of tools) out.write(parsed.json ? `${JSON.stringify({ publicName: t.publicName, rawName: t.rawName, description: t.description })}\n` : `${t.publicName}\n`);
    const info = client.getServerVersion();
    const from = info ? `${info.name} ${info.version}` : "the server";
    err.write(`${tools.length} tool${tools.length === 1 ? "" : "s"} from ${from} over ${config.transport.type}, server name "${config.name}".\n`);
    return 0;
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${parsed.timeoutMs} ms` : messageOf(error);
    err.write(`Could not list the tools of ${describeTarget(config)}: ${reason}\n`);
    const tail = handle?.stderrTail().trim();
    if (tail) err.write(`--- server stderr (last lines) ---\n${tail.split("\n").slice(-20).join("\n")}\n`);
    return 1;
  } finally {
    await client.close().catch(() => undefined);
    await scope.dispose().catch(() => undefined);
  }
}

/** `call`: one tool call through the bridge; the model's rendering on stdout (or the canonical JSON), the outcome on stderr. */
async function callOne(config: McpServerConfig, tool: string, args: Record<string, unknown>, json: boolean, out: Out, err: Out): Promise<number> {
  let bridge;
  try {
    bridge = await openBridge(config);
  } catch (error) {
    err.write(`Could not start ${describeTarget(config)}: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    const outcome = await bridge.call(tool, args);
    out.write(json ? `${JSON.stringify(outcome.canonical, null, 2)}\n` : `${outcome.rendered}\n`);
    err.write(`${tool}: ${outcome.status} in ${Math.round(outcome.durationMs)} ms${outcome.error ? ` (${outcome.error.code})` : ""}.\n`);
    return outcome.status === "ok" ? 0 : 1;
  } catch (error) {
    err.write(`${messageOf(error)}\n`);
    return 1;
  } finally {
    await bridge.close();
  }
}

const describeTarget = (config: McpServerConfig) =>
  config.transport.type === "http" ? config.transport.url : [config.transport.command, ...config.transport.args].join(" ");

const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  // `… | head` closes the pipe early: that is not a failure.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${messageOf(error)}\n`);
      process.exit(1);
    },
  );
}
