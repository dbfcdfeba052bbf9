import { templateVariables, type McpReadResult, type McpResourceContent, type McpResourceInfo, type McpResourcesPage, type McpResourceTemplateInfo } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { LiveServer } from "./live-server.js";
import { MAX_PAGES, request, requireCapability, str } from "./requests.js";
import { base64Bytes } from "./results.js";

/** Text kept per content item (characters) and blob payload kept (decoded bytes) for the UI; past that, cut or left out. */
export const READ_LIMITS = { textChars: 1_000_000, blobBytes: 5 * 1024 * 1024 };

/** One page of `resources/list` (MCP-9): the cursor is passed through as the server sent it. */
export async function listResources(live: LiveServer, cursor?: string): Promise<McpResourcesPage> {
  requireCapability(live, "resources");
  const r = await request(live, "listing its resources", (o) => live.connection.client.request({ method: "resources/list", params: cursor ? { cursor } : {} }, o));
  return {
    resources: r.resources.map((x): McpResourceInfo => ({
      uri: x.uri, name: x.name, title: str(x.title), description: str(x.description), mimeType: str(x.mimeType), size: typeof x.size === "number" ? x.size : null,
    })),
    nextCursor: r.nextCursor ?? null,
  };
}

/** Every page of `resources/templates/list` (at most MAX_PAGES). */
export async function listResourceTemplates(live: LiveServer): Promise<McpResourceTemplateInfo[]> {
  requireCapability(live, "resources");
  const out: McpResourceTemplateInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await request(live, "listing its resource templates", (o) =>
      live.connection.client.request({ method: "resources/templates/list", params: cursor ? { cursor } : {} }, o));
    for (const t of r.resourceTemplates) {
      out.push({ uriTemplate: t.uriTemplate, name: t.name, title: str(t.title), description: str(t.description), mimeType: str(t.mimeType), variables: templateVariables(t.uriTemplate) });
    }
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** `resources/read`: text kept (cut at the cap), blobs as base64 with their mime type (left out past the cap). */
export async function readResource(live: LiveServer, uri: string, limits = READ_LIMITS): Promise<McpReadResult> {
  requireCapability(live, "resources");
  const r = await request(live, `reading ${uri}`, (o) => live.connection.client.readResource({ uri }, o));
  const contents = r.contents.map((c): McpResourceContent => {
    const mimeType = str(c.mimeType);
    if ("text" in c && typeof c.text === "string") {
      const truncated = c.text.length > limits.textChars;
      return { uri: c.uri, mimeType, kind: "text", text: truncated ? c.text.slice(0, limits.textChars) : c.text, blob: null, size: Buffer.byteLength(c.text), truncated };
    }
    const blob = "blob" in c && typeof c.blob === "string" ? c.blob : "";
    const size = base64Bytes(blob);
    const truncated = size > limits.blobBytes;
    return { uri: c.uri, mimeType, kind: "blob", text: null, blob: truncated ? null : blob, size, truncated };
  });
  if (contents.length === 0) throw new HostError("not_found:mcp", `The MCP server "${live.name}" returned no contents for ${uri}.`, { reason: "resource_empty" });
  return { server: live.name, uri, contents };
}
