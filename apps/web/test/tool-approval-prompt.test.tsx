// @vitest-environment happy-dom
import type { PatternCheck, ToolApprovalAnswer, ToolApprovalView } from "@seam/shared";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { goneMessage } from "@/app/_components/approvals/tool-approval-card";
import { ToolApprovalPrompt, type AnswerKind } from "@/app/_components/approvals/tool-approval-prompt";

afterEach(cleanup);

const request: ToolApprovalView = {
  id: "req-1",
  kind: "tool_call",
  sessionId: "s1",
  sessionTitle: "Work",
  workspace: "/home/me/app",
  callId: "call-1",
  tool: "bash",
  effect: "execute",
  summary: "Run `npm test` in ~/app",
  command: { text: "npm test", cwd: "/home/me/app" },
  diff: null,
  server: null,
  args: { command: "npm test" },
  reason: "ask mode asks before execute tools run.",
  suggestedRules: ["bash(npm test)"],
  requestedAt: "2026-12-01T12:00:00.000Z",
};

const valid: PatternCheck = { ok: true, message: null, matches: [] };

function setup(overrides: { request?: ToolApprovalView; check?: (p: string) => Promise<PatternCheck>; sending?: AnswerKind | null } = {}) {
  const onAnswer = vi.fn<(a: ToolApprovalAnswer) => void>();
  const checkPattern = vi.fn(overrides.check ?? (async () => valid));
  render(<ToolApprovalPrompt request={overrides.request ?? request} onAnswer={onAnswer} checkPattern={checkPattern} sending={overrides.sending ?? null} error={null} />);
  return { onAnswer, checkPattern, card: screen.getByTestId("tool-approval-card") };
}

describe("ToolApprovalPrompt", () => {
  it("shows the summary, the command with its folder, and why it asks", () => {
    setup();
    expect(screen.getByTestId("tool-approval-summary").textContent).toBe("Run npm test in ~/app");
    expect(screen.getByTestId("tool-approval-summary").querySelector("code")?.textContent).toBe("npm test");
    expect(screen.getByTestId("bash-command").textContent).toContain("npm test");
    expect(screen.getByTestId("bash-cwd").textContent).toContain("/home/me/app");
    expect(screen.getByTestId("tool-approval-reason").textContent).toContain("ask mode asks");
  });

  it("answers once and for the session from the buttons", async () => {
    const user = userEvent.setup();
    const { onAnswer } = setup();
    await user.click(screen.getByTestId("tool-approval-once"));
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "allow", scope: "once" });
    await user.click(screen.getByTestId("tool-approval-session"));
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "allow", scope: "session", rules: ["bash(npm test)"] });
  });

  it("answers to shortcut keys when focused, and shows them", () => {
    const { onAnswer, card } = setup();
    expect(screen.getByTestId("tool-approval-once").textContent).toContain("a");
    expect(screen.getByTestId("tool-approval-once").getAttribute("aria-keyshortcuts")).toBe("a");
    fireEvent.keyDown(card, { key: "a" });
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "allow", scope: "once" });
    fireEvent.keyDown(card, { key: "s" });
    expect(onAnswer).toHaveBeenLastCalledWith(expect.objectContaining({ scope: "session" }));
    fireEvent.keyDown(card, { key: "d" });
    expect(screen.getByTestId("tool-approval-deny-form")).toBeTruthy();
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });

  it("ignores shortcut keys typed into its fields and while an answer is on its way", () => {
    const first = setup({ sending: "once" });
    fireEvent.keyDown(first.card, { key: "a" });
    expect(first.onAnswer).not.toHaveBeenCalled();
    cleanup();
    const { onAnswer, card } = setup();
    fireEvent.keyDown(card, { key: "d" });
    fireEvent.keyDown(screen.getByTestId("tool-approval-deny-message"), { key: "a" });
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it("denies with the optional message", async () => {
    const user = userEvent.setup();
    const { onAnswer } = setup();
    await user.click(screen.getByTestId("tool-approval-deny"));
    await user.type(screen.getByTestId("tool-approval-deny-message"), "  use pnpm instead ");
    await user.click(screen.getByTestId("tool-approval-deny-confirm"));
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "deny", message: "use pnpm instead" });
  });

  it("denies without a message when none is typed", async () => {
    const user = userEvent.setup();
    const { onAnswer } = setup();
    await user.click(screen.getByTestId("tool-approval-deny"));
    await user.click(screen.getByTestId("tool-approval-deny-confirm"));
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "deny" });
  });

  it("always allow: the suggested rule is editable, checked by the host, and saved with its scope", async () => {
    const user = userEvent.setup();
    const { onAnswer, checkPattern } = setup();
    await user.click(screen.getByTestId("tool-approval-always"));
    const input = screen.getByTestId("tool-approval-rule-input");
    expect((input as HTMLInputElement).value).toBe("bash(npm test)");
    await user.clear(input);
    await user.type(input, "bash(npm run test:*)");
    await user.click(screen.getByTestId("tool-approval-scope-global"));
    await user.click(screen.getByTestId("tool-approval-always-save"));
    await waitFor(() => expect(onAnswer).toHaveBeenCalled());
    expect(checkPattern).toHaveBeenCalledWith("bash(npm run test:*)");
    expect(onAnswer).toHaveBeenLastCalledWith({ id: "req-1", decision: "allow", scope: "always", rules: ["bash(npm run test:*)"], ruleScope: "global" });
  });

  it("always allow: an invalid pattern shows the host's message and sends nothing", async () => {
    const user = userEvent.setup();
    const { onAnswer } = setup({ check: async (p) => (p.includes("(") ? valid : { ok: false, message: `"${p}" is not a rule pattern`, matches: [] }) });
    await user.click(screen.getByTestId("tool-approval-always"));
    const input = screen.getByTestId("tool-approval-rule-input");
    await user.clear(input);
    await user.type(input, "bad pattern!");
    await user.click(screen.getByTestId("tool-approval-always-save"));
    expect((await screen.findByTestId("tool-approval-rule-error")).textContent).toContain("is not a rule pattern");
    expect(onAnswer).not.toHaveBeenCalled();
    // Escape goes back to the buttons.
    act(() => {
      fireEvent.keyDown(input, { key: "Escape" });
    });
    expect(screen.getByTestId("tool-approval-once")).toBeTruthy();
  });

  it("shows the diff of an edit and the arguments of an MCP tool", () => {
    setup({
      request: { ...request, tool: "edit_file", effect: "write", summary: "Edit src/a.ts (+1 −1)", command: null, diff: { path: "src/a.ts", patch: "@@ -1,1 +1,1 @@\n-old\n+new\n", added: 1, removed: 1 } },
    });
    expect(screen.getByTestId("tool-approval-diff").getAttribute("data-added")).toBe("1");
    expect(screen.getByTestId("diff-path").textContent).toBe("src/a.ts");
    cleanup();
    setup({ request: { ...request, tool: "mcp__everything__toggle", effect: "external", summary: "Call mcp__everything__toggle", command: null, server: "everything", args: { on: true } } });
    expect(screen.getByTestId("tool-approval-server").textContent).toBe("everything");
    expect(screen.getByTestId("tool-approval-args").textContent).toContain('"on": true');
  });
});

describe("goneMessage", () => {
  it("says calmly what a late answer's refusal means", () => {
    expect(goneMessage("already_answered")).toBe("Answered in another tab.");
    expect(goneMessage("withdrawn")).toMatch(/turn ended/);
    expect(goneMessage("internal:host")).toBeNull();
  });
});
