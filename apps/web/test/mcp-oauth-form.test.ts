import { McpServerConfig } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { draftFrom, parseDraft } from "@/app/_components/mcp/form-state";

/** An HTTP server's OAuth client settings (MCP-11) survive an edit in the form, which has no fields for them. */
describe("server form and transport.oauth", () => {
  it("keeps oauth through an edit", () => {
    const oauth = { clientId: "seam", clientSecretEnv: "REMOTE_SECRET", scope: "read" };
    const c = McpServerConfig.parse({ name: "remote", transport: { type: "http", url: "https://mcp.example.com/mcp", oauth } });
    const parsed = parseDraft({ ...draftFrom(c), callTimeout: "60" }, []);
    expect(parsed.ok && parsed.value.transport).toMatchObject({ type: "http", oauth });
  });

  it("adds no oauth to a server that had none", () => {
    const c = McpServerConfig.parse({ name: "plain", transport: { type: "http", url: "https://mcp.example.com/mcp" } });
    const parsed = parseDraft(draftFrom(c), []);
    expect(parsed.ok && "oauth" in parsed.value.transport).toBe(false);
  });
});
