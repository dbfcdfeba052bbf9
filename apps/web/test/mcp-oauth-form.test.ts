import { McpServerConfig } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { draftFrom, parseDraft } from "@/app/_components/mcp/form-state";

/** An HTTP server's OAuth client settings (MCP-11): four edited in the form, the rest carried through an edit. */
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

  it("edits the client id, secret variable, metadata URL and scopes, and keeps the settings it has no fields for", () => {
    const c = McpServerConfig.parse({
      name: "remote",
      transport: { type: "http", url: "https://mcp.example.com/mcp", oauth: { clientId: "old", clientSecretEnv: "OLD_SECRET", allowIssuerMismatch: true } },
    });
    const d = draftFrom(c);
    expect(d).toMatchObject({ oauthClientId: "old", oauthClientSecretEnv: "OLD_SECRET", oauthClientMetadataUrl: "", oauthScope: "" });
    const parsed = parseDraft({ ...d, oauthClientId: " seam ", oauthScope: "read write", oauthClientMetadataUrl: "https://seam.example.com/client.json" }, []);
    expect(parsed.ok && parsed.value.transport).toMatchObject({
      oauth: { clientId: "seam", clientSecretEnv: "OLD_SECRET", scope: "read write", clientMetadataUrl: "https://seam.example.com/client.json", allowIssuerMismatch: true },
    });
    // Emptying every field leaves only what the form does not edit; emptying everything of a plain server adds nothing.
    const cleared = parseDraft({ ...d, oauthClientId: "", oauthClientSecretEnv: "" }, []);
    expect(cleared.ok && cleared.value.transport).toMatchObject({ oauth: { allowIssuerMismatch: true } });
    expect(cleared.ok && (cleared.value.transport as { oauth?: Record<string, unknown> }).oauth).not.toHaveProperty("clientId");
  });

  it("puts OAuth errors on their fields and saves nothing", () => {
    const c = McpServerConfig.parse({ name: "remote", transport: { type: "http", url: "https://mcp.example.com/mcp" } });
    const noId = parseDraft({ ...draftFrom(c), oauthClientSecretEnv: "MY_SECRET" }, []);
    expect(noId).toMatchObject({ ok: false, errors: { oauthClientSecretEnv: expect.stringContaining("client id") } });
    const badUrl = parseDraft({ ...draftFrom(c), oauthClientMetadataUrl: "http://insecure.example.com/c.json" }, []);
    expect(badUrl).toMatchObject({ ok: false, errors: { oauthClientMetadataUrl: expect.stringContaining("https") } });
  });
});
