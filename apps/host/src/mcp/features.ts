import {
  MCP_PROMPT_FACT, MCP_RESOURCES_FACT, parsePromptArguments, type McpPromptCommand, type McpPromptFactPayload, type McpPromptInfo, type McpPromptResult,
  type McpReadResult, type McpResourceAttachment, type McpServerView, type McpResourcesFactPayload, type McpResourcesPage, type McpResourceTemplateInfo,
} from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { McpHub } from "./hub.js";
import { attachmentsText, promptMessagesText, promptTurnText } from "./render-resources.js";

/** A fact to append after the user's message (the session service stores it and the model reads its text). */

// The request code imports the MCP SDK; it loads with the first request, by when a server is connected
// (and the SDK loaded) anyway. Nothing of the SDK loads at host start.
const resourceRequests = () => import("./resources.js");
const promptRequests = () => import("./prompts.js");
export interface FactToAppend { factKind: string; text: string; payload: unknown }

/** Resources, prompts and "try a tool" on the servers' live connections (MCP-9), for the tRPC layer and the sessions. */
export interface McpFeatures {
  resources(name: string, cursor?: string): Promise<McpResourcesPage>;
  resourceTemplates(name: string): Promise<McpResourceTemplateInfo[]>;
  readResource(name: string, uri: string): Promise<McpReadResult>;
  prompts(name: string): Promise<McpPromptInfo[]>;
  getPrompt(name: string, prompt: string, args: Record<string, string>): Promise<McpPromptResult>;
  /** The user calling one tool by hand (enabled for the model or not): the canonical result and what the model would see. */
  tryTool(name: string, tool: string, args: Record<string, unknown>): Promise<{ canonical: unknown; rendered: string; error: { code: string; message: string } | null }>;
  /** `/mcp__<server>__<prompt>` for every ready server's prompts; a server whose listing fails is left out. */
  promptCommands(): Promise<McpPromptCommand[]>;
  /** Reads a message's attachments into one fact; any failure rejects (the message is not sent). */
  attachmentsFact(attachments: McpResourceAttachment[]): Promise<FactToAppend>;
  /** A `/mcp__server__prompt args` message → the prompt's messages as a fact; null when the text names no ready server's prompt. */
  promptInvocation(text: string): Promise<{ fact: FactToAppend } | null>;
}

const COMMAND_PREFIX = "/mcp__";

/**
 * `saved` (the service's view of a saved server) lets a server the hub does not run (its start failed, or it is
 * being restarted) be named with its state instead of "unknown".
 */
export function createMcpFeatures(hubIn: McpHub, saved?: (name: string) => McpServerView | undefined): McpFeatures {
  const hub: Pick<McpHub, "list" | "live"> = {
    list: () => hubIn.list(),
    live(name) {
      const view = hubIn.get(name) ? undefined : saved?.(name);
      if (view) {
        throw new HostError("unavailable:mcp", `The MCP server "${name}" is not connected (it is ${view.status.state}). Fix or restart it on the MCP page.`, { reason: "not_connected", name, state: view.status.state });
      }
      return hubIn.live(name);
    },
  };
  const features: McpFeatures = {
    // async: an unknown or disconnected server rejects like every other failure.
    resources: async (name, cursor) => (await resourceRequests()).listResources(hub.live(name), cursor),
    resourceTemplates: async (name) => (await resourceRequests()).listResourceTemplates(hub.live(name)),
    readResource: async (name, uri) => (await resourceRequests()).readResource(hub.live(name), uri),
    prompts: async (name) => (await promptRequests()).listPrompts(hub.live(name)),
    getPrompt: async (name, prompt, args) => (await promptRequests()).getPrompt(hub.live(name), prompt, args),
    async tryTool(name, tool, args) {
      const r = await hub.live(name).tryTool(tool, args, AbortSignal.timeout(10 * 60_000));
      return { canonical: r.canonical, rendered: r.rendered, error: r.error ?? null };
    },
    async promptCommands() {
      const ready = hub.list().filter((v) => v.status.state === "ready" && v.features?.prompts);
      const lists = await Promise.all(ready.map(async (v) => {
        try {
          return (await features.prompts(v.config.name)).map((prompt) => ({ command: `mcp__${v.config.name}__${prompt.name}`, server: v.config.name, prompt }));
        } catch {
          return [];
        }
      }));
      return lists.flat();
    },
    async attachmentsFact(attachments) {
      const results: McpReadResult[] = [];
      for (const a of attachments) {
        try {
          results.push(await features.readResource(a.server, a.uri));
        } catch (error) {
          const e = error instanceof HostError ? error : new HostError("unavailable:mcp", messageOf(error));
          throw new HostError(e.code, `The attached resource ${a.uri} of "${a.server}" could not be read, so the message was not sent: ${e.message}`, { ...e.data, attachment: a });
        }
      }
      const payload: McpResourcesFactPayload = {
        attachments: results.map((r) => ({
          server: r.server, uri: r.uri, mimeType: r.contents[0]?.mimeType ?? null, size: r.contents.reduce((n, c) => n + c.size, 0),
          truncated: r.contents.some((c) => c.truncated), kind: r.contents.every((c) => c.kind === "text") ? "text" : "blob",
        })),
      };
      return { factKind: MCP_RESOURCES_FACT, text: attachmentsText(results), payload };
    },
    async promptInvocation(text) {
      const line = text.trim();
      if (!line.startsWith(COMMAND_PREFIX)) return null;
      const [head] = line.split(/\s+/);
      const command = head!.slice(COMMAND_PREFIX.length);
      // Server names may contain "__": the longest configured name that prefixes the command wins.
      const server = hub.list().map((v) => v.config.name).filter((n) => command.startsWith(`${n}__`)).sort((a, b) => b.length - a.length)[0];
      if (!server) return null;
      const prompt = command.slice(server.length + 2);
      if (!prompt) return null;
      const argText = line.slice(head!.length);
      const args = parsePromptArguments(argText);
      if (!args) {
        throw new HostError("bad_input:mcp", `Could not read the arguments of /${command}: write them as name=value, with "double quotes" around values that contain spaces.`, { reason: "bad_arguments" });
      }
      const result = await features.getPrompt(server, prompt, args);
      const payload: McpPromptFactPayload = { server, prompt, arguments: args, messages: promptMessagesText(result) };
      return { fact: { factKind: MCP_PROMPT_FACT, text: promptTurnText(result, args), payload } };
    },
  };
  return features;
}
