import { describe, expect, it } from "vitest";
import { McpOAuthSettings } from "../src/mcp-oauth.js";

describe("OAuth settings of an MCP server (MCP-11)", () => {
  it("a jwt_bearer grant (SEP-990) needs the client, the IdP's token endpoint and client, and where the ID token is", () => {
    const full = { grant: "jwt_bearer", clientId: "c", idpTokenEndpoint: "https://idp.example.com/token", idpClientId: "i", idTokenEnv: "MY_ID_TOKEN" };
    expect(McpOAuthSettings.parse(full)).toMatchObject(full);
    for (const missing of ["clientId", "idpTokenEndpoint", "idpClientId", "idTokenEnv"]) {
      const partial: Record<string, unknown> = { ...full };
      delete partial[missing];
      const r = McpOAuthSettings.safeParse(partial);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toContain("jwt_bearer needs clientId, idpTokenEndpoint, idpClientId and idTokenEnv");
    }
    expect(McpOAuthSettings.safeParse({ ...full, idpTokenEndpoint: "not a url" }).success).toBe(false);
    expect(McpOAuthSettings.safeParse({ ...full, idTokenEnv: "lower case" }).success).toBe(false);
  });

  it("allowIssuerMismatch is a boolean and off unless set", () => {
    expect(McpOAuthSettings.parse({}).allowIssuerMismatch).toBeUndefined();
    expect(McpOAuthSettings.parse({ allowIssuerMismatch: true }).allowIssuerMismatch).toBe(true);
    expect(McpOAuthSettings.safeParse({ allowIssuerMismatch: "yes" }).success).toBe(false);
  });
});
