import { describe, expect, it } from "vitest";
import { ModelSettings, SessionCreateInput, SessionSendInput, TimelineItem } from "../src/index.js";

describe("shared input schemas (SEC-5)", () => {
  it("requires a model id when a provider is chosen, and defaults maxSteps to 25", () => {
    expect(ModelSettings.safeParse({ provider: "openai-compatible" }).success).toBe(false);
    const ok = ModelSettings.parse({ provider: "openai-compatible", model: "deepseek-chat", baseURL: "https://api.deepseek.com/v1" });
    expect(ok.maxSteps).toBe(25);
    expect(ModelSettings.parse({ provider: "none" }).provider).toBe("none");
  });

  it("refuses non-http base URLs and key names that are not env var names", () => {
    expect(ModelSettings.safeParse({ provider: "anthropic", model: "m", baseURL: "file:///etc/passwd" }).success).toBe(false);
    const key = ModelSettings.safeParse({ provider: "anthropic", model: "m", apiKeyEnv: "sk-live-abc123 " });
    expect(key.success).toBe(false);
    expect(key.error?.issues[0]?.message).toMatch(/environment variable name/);
  });

  it("trims and requires a workspace; refuses empty messages", () => {
    expect(SessionCreateInput.parse({ workspace: "  /tmp/x  " }).workspace).toBe("/tmp/x");
    expect(SessionCreateInput.safeParse({ workspace: "   " }).success).toBe(false);
    expect(SessionSendInput.safeParse({ sessionId: "s", text: "" }).success).toBe(false);
  });

  it("discriminates timeline items by kind", () => {
    const fact = TimelineItem.parse({ kind: "fact", id: "f", seq: 1, turnId: null, createdAt: "", factKind: "skills_catalog", text: "x", payload: null });
    expect(fact.kind).toBe("fact");
    expect(TimelineItem.safeParse({ kind: "nope", id: "f", seq: 1, turnId: null, createdAt: "" }).success).toBe(false);
  });
});
