import { describe, expect, test } from "vitest";
import { INTERRUPTED_RESULT, toModelPrompt } from "../../src/llm/messages.js";

describe("toModelPrompt", () => {
  test("puts the system prompt first, as a system message", () => {
    expect(toModelPrompt("Be brief.", [{ role: "user", text: "hi" }])).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
  });

  test("groups consecutive tool results and marks errors", () => {
    expect(toModelPrompt(undefined, [
      { role: "user", text: "go" },
      { role: "assistant", text: "", toolCalls: [{ id: "a", name: "t1", args: { x: 1 } }, { id: "b", name: "t2", args: {} }] },
      { role: "tool", callId: "a", name: "t1", output: "ok", isError: false },
      { role: "tool", callId: "b", name: "t2", output: "boom", isError: true },
      { role: "assistant", text: "done", toolCalls: [] },
    ])).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [
        { type: "tool-call", toolCallId: "a", toolName: "t1", input: { x: 1 } },
        { type: "tool-call", toolCallId: "b", toolName: "t2", input: {} },
      ] },
      { role: "tool", content: [
        { type: "tool-result", toolCallId: "a", toolName: "t1", output: { type: "text", value: "ok" } },
        { type: "tool-result", toolCallId: "b", toolName: "t2", output: { type: "error-text", value: "boom" } },
      ] },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ]);
  });

  test("closes calls left open by a stopped turn, drops orphan results and empty replies", () => {
    expect(toModelPrompt(undefined, [
      { role: "user", text: "go" },
      { role: "assistant", text: "calling", toolCalls: [{ id: "a", name: "t1", args: {} }] },
      { role: "user", text: "stop that" },
      { role: "tool", callId: "a", name: "t1", output: "late", isError: false },
      { role: "tool", callId: "zzz", name: "t1", output: "orphan", isError: false },
      { role: "assistant", text: "", toolCalls: [] },
      { role: "user", text: "again" },
    ])).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "text", text: "calling" }, { type: "tool-call", toolCallId: "a", toolName: "t1", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "t1", output: { type: "error-text", value: INTERRUPTED_RESULT } }] },
      { role: "user", content: [{ type: "text", text: "stop that" }] },
      { role: "user", content: [{ type: "text", text: "again" }] },
    ]);
  });
});
