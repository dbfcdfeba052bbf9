import { McpServerConfig } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { exportServers, previewImport } from "../../src/mcp/import.js";

/** OAuth client settings (MCP-11) in Import / Export JSON: kept for HTTP servers, a bad entry is a message in words. */
describe("import/export of transport.oauth", () => {
  const none = new Map<string, McpServerConfig>();

  it("keeps oauth on an HTTP entry and writes it back on export", () => {
    const oauth = { clientId: "seam-desktop", clientSecretEnv: "REMOTE_CLIENT_SECRET", scope: "read write" };
    const p = previewImport(JSON.stringify({ mcpServers: { remote: { url: "https://mcp.example.com/mcp", oauth } } }), none);
    const e = p.entries.find((x) => x.name === "remote")!;
    expect(e.errors).toEqual([]);
    expect(e.config?.transport).toMatchObject({ type: "http", oauth });
    const out = JSON.parse(exportServers([McpServerConfig.parse(e.config)]).json) as { mcpServers: Record<string, { oauth?: unknown }> };
    expect(out.mcpServers.remote!.oauth).toEqual(oauth);
  });

  it("rejects a secret without its client id and a non-https metadata URL, in words", () => {
    const p = previewImport(JSON.stringify({ mcpServers: {
      a: { url: "https://a.example/mcp", oauth: { clientSecretEnv: "A_SECRET" } },
      b: { url: "https://b.example/mcp", oauth: { clientMetadataUrl: "http://b.example/client.json" } },
    } }), none);
    const messages = p.entries.flatMap((x) => x.errors.map((i) => `${x.name}: ${i.message}`)).join("\n");
    expect(messages).toContain("a: A client secret needs the client id it belongs to");
    expect(messages).toContain("b: Enter an https URL with a path");
    expect(p.entries.every((x) => x.action === "invalid" || x.config === null || x.errors.length > 0)).toBe(true);
  });

  it("warns that oauth does not apply to a stdio entry", () => {
    const p = previewImport(JSON.stringify({ mcpServers: { local: { command: "node", args: ["x.js"], oauth: { clientId: "x" } } } }), none);
    expect(p.entries[0]!.warnings).toContain("Ignored oauth: it applies to HTTP servers only.");
  });
});
