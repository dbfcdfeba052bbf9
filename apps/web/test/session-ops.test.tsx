// @vitest-environment happy-dom
import { SESSION_IMPORT_MAX_CHARS, type MessageItem, type TurnInfo } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TimelineRow } from "@/app/_components/chat/timeline-state";
import { canSendEdit, EditMessageBox } from "@/app/_components/session-ops/edit-message-box";
import { MessageOpsView } from "@/app/_components/session-ops/message-ops";
import { canRetry, RetryActionView } from "@/app/_components/session-ops/retry-action";
import { importAdvice, readImportFile } from "@/app/_components/session-ops/session-menu";

afterEach(cleanup);

const user = (text: string, id = "m1"): MessageItem => ({ kind: "message", id, seq: 1, turnId: "t1", createdAt: "2026-01-01T00:00:00Z", role: "user", text, state: "complete" });
const row = (item: MessageItem): TimelineRow => ({ key: item.id, kind: "item", item });
const turn = { id: "t1", sessionId: "s", status: "failed", steps: 1, reason: "x", mode: "model", inputTokens: null, outputTokens: null, startedAt: "", endedAt: "" } satisfies TurnInfo;

describe("Edit and Fork on a user message (CTX-5)", () => {
  it("CTX-5 offers Edit and Fork, each calling its handler", async () => {
    const onFork = vi.fn();
    const onEdit = vi.fn();
    render(<MessageOpsView busy={false} forking={false} error={null} onFork={onFork} onEdit={onEdit} />);
    await userEvent.click(screen.getByTestId("message-fork"));
    await userEvent.click(screen.getByTestId("message-edit"));
    expect(onFork).toHaveBeenCalledOnce();
    expect(onEdit).toHaveBeenCalledOnce();
    expect(screen.queryByTestId("message-fork-error")).toBeNull();
  });

  it("CTX-5 disables both for a message of the running turn, and says why a fork failed", () => {
    render(<MessageOpsView busy forking={false} error="No session with id s" onFork={vi.fn()} onEdit={vi.fn()} />);
    expect(screen.getByTestId("message-fork")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("message-edit")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("message-edit").getAttribute("title")).toMatch(/running turn/);
    expect(screen.getByTestId("message-fork-error").textContent).toBe("Could not fork: No session with id s");
  });
});

describe("the edit box (CTX-5)", () => {
  it("CTX-5 opens with the message's text; sends only changed, non-empty text", async () => {
    const onSend = vi.fn();
    render(<EditMessageBox initial="old words" pending={false} error={null} onSend={onSend} onCancel={vi.fn()} />);
    const input = screen.getByTestId("edit-message-input") as HTMLTextAreaElement;
    expect(input.value).toBe("old words");
    expect(screen.getByTestId("edit-message-send")).toHaveProperty("disabled", true);
    await userEvent.clear(input);
    expect(screen.getByTestId("edit-message-send")).toHaveProperty("disabled", true);
    await userEvent.type(input, "new words");
    await userEvent.click(screen.getByTestId("edit-message-send"));
    expect(onSend).toHaveBeenCalledWith("new words");
    expect(canSendEdit("a", "a")).toBe(false);
    expect(canSendEdit("a", "   ")).toBe(false);
    expect(canSendEdit("a", "b")).toBe(true);
  });

  it("CTX-5 Ctrl+Enter sends, Escape cancels, an error is shown in words", async () => {
    const onSend = vi.fn();
    const onCancel = vi.fn();
    render(<EditMessageBox initial="x" pending={false} error="A turn is already running" onSend={onSend} onCancel={onCancel} />);
    const input = screen.getByTestId("edit-message-input");
    await userEvent.type(input, "y{Control>}{Enter}{/Control}");
    expect(onSend).toHaveBeenCalledWith("xy");
    await userEvent.type(input, "{Escape}");
    expect(onCancel).toHaveBeenCalledOnce();
    expect(screen.getByTestId("edit-message-error").textContent).toMatch(/Could not send the edit: A turn is already running/);
  });

  it("CTX-5 is locked while the fork is being made", () => {
    render(<EditMessageBox initial="x" pending error={null} onSend={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByTestId("edit-message-input")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("edit-message-send").textContent).toMatch(/Forking/);
  });
});

describe("Retry (CTX-5)", () => {
  it("CTX-5 shows only when no turn runs and there is a user message", () => {
    expect(canRetry([], false)).toBe(false);
    expect(canRetry([{ key: "t", kind: "turn", turn }], false)).toBe(false);
    expect(canRetry([row(user("hi"))], false)).toBe(true);
    expect(canRetry([row(user("hi"))], true)).toBe(false);
  });

  it("CTX-5 the button retries and shows an error in words", async () => {
    const onRetry = vi.fn();
    render(<RetryActionView pending={false} error="A turn is still running" onRetry={onRetry} />);
    await userEvent.click(screen.getByTestId("turn-retry"));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.getByTestId("turn-retry-error").textContent).toBe("Could not retry: A turn is still running");
  });
});

describe("Import (CTX-5)", () => {
  it("CTX-5 refuses a file over the limit before sending it and reads one within it", async () => {
    const big = { name: "big.json", size: SESSION_IMPORT_MAX_CHARS * 4 + 1, text: async () => "" };
    expect(await readImportFile(big)).toEqual({ error: expect.stringMatching(/big\.json is too large/) });
    const long = { name: "long.json", size: 10, text: async () => "x".repeat(SESSION_IMPORT_MAX_CHARS + 1) };
    expect(await readImportFile(long)).toEqual({ error: expect.stringMatching(/too large/) });
    expect(await readImportFile({ name: "ok.json", size: 2, text: async () => "{}" })).toEqual({ text: "{}" });
  });

  it("CTX-5 a missing workspace says how to go on", () => {
    expect(importAdvice("workspace_missing", "The export's workspace /x does not exist.")).toMatch(/Import into this workspace/);
    expect(importAdvice("bad_json", "The file is not JSON.")).toBe("The file is not JSON.");
  });
});
