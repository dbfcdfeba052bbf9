import { describe, expect, it } from "vitest";
import type { TimelineItem, TurnInfo } from "@seam/shared";
import { toChatMessages } from "../../src/agent/history.js";

let seq = 0;
const base = (turnId: string | null) => ({ id: `i${++seq}`, seq, turnId, createdAt: new Date(0).toISOString() });
const user = (turnId: string, text: string): TimelineItem => ({ ...base(turnId), kind: "message", role: "user", text, state: "complete" });
const assistant = (turnId: string, text: string, state: "complete" | "interrupted" = "complete"): TimelineItem => ({ ...base(turnId), kind: "message", role: "assistant", text, state });
const call = (turnId: string, name: string, rendered: string | null, status: "ok" | "error" | "cancelled" = "ok"): TimelineItem => ({
  ...base(turnId), kind: "tool_call", callId: `c${seq}`, name, args: { path: "x" }, status, canonical: null, rendered,
  error: status === "ok" ? null : { code: "interrupted", message: "cut" }, startedAt: "", endedAt: null,
});
const turn = (id: string, mode: "model" | "direct"): TurnInfo => ({ id, sessionId: "s", status: "completed", steps: 1, reason: null, mode, inputTokens: null, outputTokens: null, startedAt: "", endedAt: null });

describe("toChatMessages (CORE-13: the timeline is the model's history)", () => {
  it("groups assistant text with the tool calls that follow, then one tool message per call", () => {
    const items = [user("t1", "read it"), assistant("t1", "Looking."), call("t1", "read_file", "1\thello"), call("t1", "grep", "no matches"), assistant("t1", "Done.")];
    const out = toChatMessages(items, [turn("t1", "model")]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    const a = out[1]!;
    expect(a.role === "assistant" && a.toolCalls.map((c) => c.name)).toEqual(["read_file", "grep"]);
    expect(out[2]).toMatchObject({ role: "tool", name: "read_file", output: "1\thello", isError: false });
  });

  it("creates an empty assistant message for tool calls without text", () => {
    const out = toChatMessages([user("t1", "go"), call("t1", "list_dir", "a/")], [turn("t1", "model")]);
    expect(out[1]).toEqual({ role: "assistant", text: "", toolCalls: [{ id: expect.any(String), name: "list_dir", args: { path: "x" } }] });
  });

  it("gives an unfinished call an error result so the history stays valid", () => {
    const out = toChatMessages([user("t1", "go"), call("t1", "grep", null, "cancelled")], [turn("t1", "model")]);
    expect(out[2]).toMatchObject({ role: "tool", isError: true, output: "Error [interrupted]: cut" });
  });

  it("tells direct-mode tool runs as user context, never as the model's own calls", () => {
    const out = toChatMessages([user("d1", "/call list_dir {}"), call("d1", "list_dir", "README.md")], [turn("d1", "direct")]);
    expect(out).toHaveLength(1);
    expect(out[0]!.role).toBe("user");
    expect(out[0]!.role === "user" && out[0]!.text).toContain("I ran the tool list_dir");
  });

  it("skips facts without text without splitting the assistant's tool calls", () => {
    const aux: TimelineItem = { ...base("t1"), kind: "fact", factKind: "aux_request", text: "", payload: { url: "x" } };
    const out = toChatMessages([user("t1", "go"), call("t1", "web_search", "r1"), aux, call("t1", "read_file", "r2")], [turn("t1", "model")]);
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool"]);
  });

  it("keeps interrupted assistant text and includes facts as user context", () => {
    const fact: TimelineItem = { ...base("t1"), kind: "fact", factKind: "skills_catalog", text: "<system-reminder>x</system-reminder>", payload: null };
    const out = toChatMessages([fact, user("t1", "hi"), assistant("t1", "partial", "interrupted")], [turn("t1", "model")]);
    expect(out.map((m) => m.role)).toEqual(["user", "user", "assistant"]);
    expect(out[2]).toMatchObject({ text: "partial" });
  });
});
