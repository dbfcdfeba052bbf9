import { McpResourceUri, McpServerName, type McpServerView } from "@seam/shared";
import { z } from "zod";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { HostError, messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { McpFeatures } from "./features.js";
import { renderRead } from "./render-resources.js";

/** How much of the servers' listings `list_mcp_resources` gives the model. */
export const LIST_LIMITS = { pagesPerServer: 5, resourcesPerServer: 100, templatesPerServer: 20, descriptionChars: 200, totalChars: 30_000 };
/** Characters of a read resource the model sees (other tool results are capped by the runtime at 100,000). */
export const READ_RENDER_CHARS = 50_000;

const oneLine = (s: string | null, max: number) => (s ? ` — ${s.replace(/\s+/g, " ").trim().slice(0, max)}` : "");

/** `list_mcp_resources({server?})`: ready servers' resources and templates, bounded. */
export function listResourcesTool(features: Pick<McpFeatures, "resources" | "resourceTemplates">, servers: () => McpServerView[]): ToolDef {
  return defineTool({
    name: "list_mcp_resources",
    description: "List the resources (and resource templates) that connected MCP servers offer: their URIs, names and descriptions. Read one with read_mcp_resource.",
    capability: "mcp",
    input: z.object({ server: McpServerName.optional().describe("Only this MCP server's resources (default: every server that offers resources)") }),
    async run({ server }) {
      const offering = servers().filter((v) => v.status.state === "ready" && v.features?.resources);
      const chosen = server ? offering.filter((v) => v.config.name === server) : offering;
      if (server && chosen.length === 0) {
        const names = offering.map((v) => v.config.name).join(", ");
        throw new HostError("not_found:mcp", `No connected MCP server named "${server}" offers resources.${names ? ` These do: ${names}.` : ""}`, { reason: "unknown_server" });
      }
      const sections: string[] = [];
      const canonical: { server: string; resources: unknown[]; templates: unknown[]; more: boolean; error?: string }[] = [];
      for (const v of chosen) {
        const name = v.config.name;
        try {
          const resources = [];
          let cursor: string | undefined;
          let more = false;
          for (let page = 0; page < LIST_LIMITS.pagesPerServer; page++) {
            const r = await features.resources(name, cursor);
            resources.push(...r.resources);
            cursor = r.nextCursor ?? undefined;
            if (!cursor) break;
            if (page === LIST_LIMITS.pagesPerServer - 1) more = true;
          }
          if (resources.length > LIST_LIMITS.resourcesPerServer) more = true;
          const shown = resources.slice(0, LIST_LIMITS.resourcesPerServer);
          const templates = (await features.resourceTemplates(name)).slice(0, LIST_LIMITS.templatesPerServer);
          canonical.push({ server: name, resources: shown, templates, more });
          const lines = [`Server "${name}": ${shown.length} resource(s)${more ? " (more exist; only the first are listed)" : ""}`];
          for (const r of shown) lines.push(`- ${r.uri} (${r.name}${r.mimeType ? `, ${r.mimeType}` : ""})${oneLine(r.description, LIST_LIMITS.descriptionChars)}`);
          if (templates.length > 0) {
            lines.push(`Templates (fill in the {variables} to get a URI):`);
            for (const t of templates) lines.push(`- ${t.uriTemplate} (${t.name})${oneLine(t.description, LIST_LIMITS.descriptionChars)}`);
          }
          sections.push(lines.join("\n"));
        } catch (error) {
          canonical.push({ server: name, resources: [], templates: [], more: false, error: messageOf(error) });
          sections.push(`Server "${name}": could not list its resources: ${messageOf(error)}`);
        }
      }
      let rendered = sections.join("\n\n") || "No connected MCP server offers resources.";
      if (rendered.length > LIST_LIMITS.totalChars) rendered = `${rendered.slice(0, LIST_LIMITS.totalChars)}\n(listing cut; ask for one server with {"server": "<name>"})`;
      return { canonical: { type: "mcp_resources", servers: canonical }, rendered };
    },
  });
}

/** `read_mcp_resource({server, uri})`: contents rendered like MCP tool results (text joined, blobs as placeholders). */
export function readResourceTool(features: Pick<McpFeatures, "readResource">): ToolDef {
  return defineTool({
    name: "read_mcp_resource",
    description: "Read one resource of an MCP server by its URI (from list_mcp_resources, or a filled-in template). Text comes back as text; images and other binary contents as short placeholders.",
    capability: "mcp",
    maxRenderedChars: READ_RENDER_CHARS,
    input: z.object({ server: McpServerName.describe("The MCP server's name"), uri: McpResourceUri.describe("The resource's URI") }),
    async run({ server, uri }) {
      const result = await features.readResource(server, uri);
      // The canonical result keeps the contents' shape without blob payloads (the timeline stores it).
      const contents = result.contents.map((c) => ({ ...c, blob: null }));
      return { canonical: { type: "mcp_resource", server, uri, contents }, rendered: renderRead(result) };
    },
  });
}

/**
 * Registers both tools while at least one ready server advertises resources (re-checked on every hub change),
 * unregisters them otherwise. The returned disposer unregisters them for good.
 */
export function registerResourceTools(registry: ToolRegistry, features: McpFeatures, hub: { list(): McpServerView[]; onChange(fn: () => void): Disposer }): Disposer {
  const tools = [listResourcesTool(features, () => hub.list()), readResourceTool(features)];
  let unregister: Disposer[] | null = null;
  let closed = false;
  const sync = () => {
    const offered = !closed && hub.list().some((v) => v.status.state === "ready" && v.features?.resources);
    if (offered && !unregister) unregister = tools.map((t) => registry.register(t));
    else if (!offered && unregister) {
      for (const u of unregister) u();
      unregister = null;
    }
  };
  const stop = hub.onChange(sync);
  sync();
  return () => {
    closed = true;
    stop();
    sync();
  };
}
