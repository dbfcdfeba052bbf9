import { describe, expect, it } from "vitest";
import { readConversation } from "../src/scripted-model/conversation.js";

const read = (messages: unknown[]) => {
  const c = readConversation({ model: "m", stream: true, messages });
  if (typeof c === "string") throw new Error(c);
  return c;
};

describe("readConversation", () => {
  it("matches on the user's words, skipping injected reminders after them (OpenAI shape)", () => {
    const c = read([
      { role: "user", content: "read the README" },
      { role: "user", content: "<system-reminder>\n<available_skills>…</available_skills>\n</system-reminder>" },
    ]);
    expect(c.userText).toBe("read the README");
    expect(c.assistantsAfter).toBe(0);
  });

  it("drops injected parts from a merged user message (Anthropic shape)", () => {
    const c = read([
      { role: "user", content: [{ type: "text", text: "/review fast" }, { type: "text", text: '<skill_content name="review">…</skill_content>' }] },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ]);
    expect(c.userText).toBe("/review fast");
    expect(c.assistantsAfter).toBe(1);
  });

  it("skips MCP resources attached after the user's message (MCP-9)", () => {
    const c = read([
      { role: "user", content: "what does this say?" },
      { role: "user", content: '<mcp_resources>\nThe user attached this MCP resource…\n<mcp_resource server="s" uri="x://y">…</mcp_resource>\n</mcp_resources>' },
    ]);
    expect(c.userText).toBe("what does this say?");
  });
});
