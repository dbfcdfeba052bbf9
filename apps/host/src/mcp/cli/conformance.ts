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
  const timeoutMs = run.timeoutMs ?? 20_000;
  const auth = run.scenario.startsWith("auth/") ? oauthFor(run.scenario, context) : undefined;
  let bridge: CliBridge;
  try {
    bridge = await openBridge(
      { name: "conformance", transport: { type: "http", url: run.url, headers: {}, ...(auth && { oauth: auth.settings }) }, startupTimeoutMs: timeoutMs, callTimeoutMs: timeoutMs },
      auth ? { oauth: { secrets: auth.secrets } } : {},
    );
  } catch (error) {
    err.write(`Could not connect to ${run.url}: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    const steps = plan(run.scenario, bridge);
    let failed = 0;
    for (const step of steps) {
      const before = bridge.signIns();
      let outcome = await bridge.call(step.tool, step.args);
      // A step-up (insufficient_scope) signs in again with more scope and reconnects: the call goes again with the
      // new token once the server is back (a few tries while the old connection winds down).
      for (let retry = 0; auth && retry < 5 && RETRYABLE.has(outcome.error?.code ?? ""); retry++) {
        await bridge.signedInAfter(before, timeoutMs);
        await new Promise((r) => setTimeout(r, 200));
        await bridge.ready(timeoutMs);
        outcome = await bridge.call(step.tool, step.args);
      }
      err.write(`${step.tool}: ${outcome.status}${outcome.status === "ok" ? "" : ` — ${outcome.rendered}`}\n`);
      if (outcome.status !== "ok") failed++;
    }
    err.write(`${run.scenario}: ${bridge.tools().length} tools listed, ${steps.length} called, ${failed} failed.\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    await bridge.close();
  }
}

/**
 * The URL-based client id (Client ID Metadata Document) the conformance suite's authorization servers expect from a
 * client that uses one; an authorization server that does not support such documents gets a dynamic registration.
 */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const SECRET = "MCP_CONFORMANCE_CLIENT_SECRET";
const KEY = "MCP_CONFORMANCE_PRIVATE_KEY";
const ID_TOKEN = "MCP_CONFORMANCE_ID_TOKEN";

/** OAuth settings from the scenario's context: a pre-registered client (secret or private key) or none. */
function oauthFor(scenario: string, context: Record<string, unknown>): { settings: Record<string, unknown>; secrets: Record<string, string> } {
  const str = (k: string) => (typeof context[k] === "string" ? (context[k] as string) : undefined);
  const clientId = str("client_id");
  const secret = str("client_secret");
  const key = str("private_key_pem");
  const secrets: Record<string, string> = {};
  if (secret) secrets[SECRET] = secret;
  if (key) secrets[KEY] = key;
  // The 2025-03-26 scenarios publish metadata whose issuer differs from its URL, as servers of that revision may.
  const legacy = scenario.startsWith("auth/2025-03-26") ? { allowIssuerMismatch: true } : {};
  if (!clientId) return { settings: { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL, ...legacy }, secrets };
  if (scenario === "auth/cross-app-access-complete-flow") {
    // SEP-990: the user's ID token from the enterprise IdP is exchanged there for a grant the server's AS accepts.
    const idToken = str("idp_id_token");
    if (idToken) secrets[ID_TOKEN] = idToken;
    return {
      settings: {
        grant: "jwt_bearer", clientId, ...(secret && { clientSecretEnv: SECRET }),
        idpTokenEndpoint: str("idp_token_endpoint"), idpClientId: str("idp_client_id"), idTokenEnv: ID_TOKEN,
      },
      secrets,
    };
  }
  // The client-credentials scenarios (SEP-1046) want a machine client; the others a person's sign-in with these credentials.
  const machine = scenario.startsWith("auth/client-credentials");
  return {
    settings: {
      clientId,
      ...(secret && { clientSecretEnv: SECRET }),
      ...(key && { privateKeyEnv: KEY, signingAlgorithm: str("signing_algorithm") ?? "ES256" }),
      ...(machine && { grant: "client_credentials" }),
    },
    secrets,
  };
}

/** Call failures that a new sign-in can cure. */
const RETRYABLE = new Set(["needs_authorization", "generation_unavailable"]);

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
