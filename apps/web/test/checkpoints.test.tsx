// @vitest-environment happy-dom
import type { ChangedFile, RewindResult, TimelineItem } from "@seam/shared";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChangedFilesCardView, type ChangedFilesCardViewProps } from "@/app/_components/checkpoints/changed-files-card";
import { checkpointIndex, rewindErrorAdvice, rewindSummary, type ChangedFilesPayload } from "@/app/_components/checkpoints/checkpoint-facts";
import { RestoreDialog } from "@/app/_components/checkpoints/restore-action";

afterEach(cleanup);

const TREE_A = "a".repeat(40);
const TREE_B = "b".repeat(40);

const file = (over: Partial<ChangedFile> = {}): ChangedFile => ({
  path: "src/a.ts",
  status: "modified",
  added: 1,
  removed: 1,
  binary: false,
  oldMode: "100644",
  newMode: "100644",
  patch: "diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n keep();\n",
  truncated: false,
  ...over,
});

const payload = (files: ChangedFile[]): ChangedFilesPayload => ({
  from: TREE_A,
  to: TREE_B,
  files,
  added: files.reduce((n, f) => n + f.added, 0),
  removed: files.reduce((n, f) => n + f.removed, 0),
  truncated: files.some((f) => f.truncated),
  turnId: "t1",
  workspace: "/w",
});

const result = (over: Partial<RewindResult> = {}): RewindResult => ({ restored: [], removed: [], conflicts: [], before: TREE_A, ...over });

function renderCard(over: Partial<ChangedFilesCardViewProps> = {}) {
  const onUndo = vi.fn();
  render(
    <ChangedFilesCardView
      payload={payload([file(), file({ path: "new.txt", status: "added", added: 3, removed: 0, patch: "@@ -0,0 +1,3 @@\n+a\n+b\n+c\n" }), file({ path: "logo.png", status: "deleted", added: 0, removed: 0, binary: true, patch: "" })])}
      undone={null}
      pending={false}
      running={false}
      error={null}
      onUndo={onUndo}
      {...over}
    />,
  );
  return { onUndo };
}

describe("ChangedFilesCardView", () => {
  it("heads with the counts and lists each file with its letter and +/−; a file expands to its diff", async () => {
    const user = userEvent.setup();
    renderCard();
    expect(screen.getByTestId("changed-files-counts").textContent).toBe("3 files, +4 −1");
    const rows = screen.getAllByTestId("changed-file");
    expect(rows.map((r) => within(r).getByTestId("changed-file-status").textContent)).toEqual(["M", "A", "D"]);
    expect(within(rows[1]!).getByTestId("diff-counts").textContent).toBe("+3 −0");
    expect(rows[2]!.textContent).toContain("binary");
    await user.click(within(rows[0]!).getByTestId("changed-file-toggle"));
    const diff = within(rows[0]!).getByTestId("changed-file-diff");
    expect(within(diff).getByTestId("diff-added").textContent).toContain("const a = 2;");
    await user.click(within(rows[2]!).getByTestId("changed-file-toggle"));
    expect(within(rows[2]!).getByTestId("changed-file-binary").textContent).toContain("Binary file");
  });

  it("says when a patch was cut or left out", async () => {
    const user = userEvent.setup();
    render(
      <ChangedFilesCardView
        payload={payload([file({ truncated: true }), file({ path: "big.txt", patch: "", truncated: true, added: 9000 })])}
        undone={null}
        pending={false}
        running={false}
        error={null}
        onUndo={() => {}}
      />,
    );
    const rows = screen.getAllByTestId("changed-file");
    await user.click(within(rows[0]!).getByTestId("changed-file-toggle"));
    await user.click(within(rows[1]!).getByTestId("changed-file-toggle"));
    expect(within(rows[0]!).getByTestId("changed-file-truncated").textContent).toContain("cut short");
    expect(within(rows[1]!).getByTestId("changed-file-truncated").textContent).toContain("left out");
  });

  it("Undo this turn calls back; while pending it shows progress and cannot be pressed again", async () => {
    const user = userEvent.setup();
    const { onUndo } = renderCard();
    await user.click(screen.getByTestId("changed-files-undo"));
    expect(onUndo).toHaveBeenCalledTimes(1);
    cleanup();
    renderCard({ pending: true });
    expect(screen.getByTestId("changed-files-undo").hasAttribute("disabled")).toBe(true);
    expect(screen.getByTestId("changed-files-undo").textContent).toContain("Undoing…");
    expect(screen.getByTestId("changed-files-progress")).toBeTruthy();
  });

  it("waits for a running turn", () => {
    renderCard({ running: true });
    expect(screen.getByTestId("changed-files-undo").hasAttribute("disabled")).toBe(true);
    expect(screen.getByTestId("changed-files-wait").textContent).toContain("when the running turn ends");
  });

  it("an undone card says Undone, has no button, and lists conflicts with their reason", () => {
    renderCard({
      undone: result({ restored: ["src/a.ts"], removed: ["new.txt"], conflicts: [{ path: "logo.png", reason: "changed since the turn ended; left as is" }] }),
    });
    expect(screen.getByTestId("changed-files-undone").textContent).toContain("Undone");
    expect(screen.queryByTestId("changed-files-undo")).toBeNull();
    expect(screen.getByTestId("rewind-summary").textContent).toBe("1 restored, 1 removed, 1 left as it is");
    expect(screen.getByTestId("rewind-restored").textContent).toContain("src/a.ts");
    expect(screen.getByTestId("rewind-removed").textContent).toContain("new.txt");
    const conflicts = screen.getByTestId("rewind-conflicts");
    expect(conflicts.textContent).toContain("left as it is — you changed it since");
    const row = within(conflicts).getByTestId("rewind-conflict");
    expect(row.getAttribute("data-path")).toBe("logo.png");
    expect(row.textContent).toContain("changed since the turn ended");
  });

  it("several conflicts read in the plural", () => {
    renderCard({ undone: result({ conflicts: [{ path: "a", reason: "r1" }, { path: "b", reason: "r2" }] }) });
    expect(screen.getByTestId("rewind-conflicts").textContent).toContain("2 files were left as they are — you changed them since.");
    expect(screen.getAllByTestId("rewind-conflict")).toHaveLength(2);
  });

  it("an error says what to do", () => {
    renderCard({ error: { code: "turn_running", message: "A turn is running in this session." } });
    const error = screen.getByTestId("changed-files-error");
    expect(error.getAttribute("data-code")).toBe("turn_running");
    expect(error.textContent).toContain("Wait for it to finish");
  });
});

describe("checkpointIndex", () => {
  const base = { turnId: null, createdAt: "2025-01-01T00:00:00.000Z" };
  const user = (id: string, seq: number): TimelineItem => ({ ...base, id, seq, kind: "message", role: "user", text: id, state: "complete" });
  const changed = (id: string, seq: number, turnId: string): TimelineItem => ({ ...base, id, seq, kind: "fact", factKind: "changed_files", text: "", payload: { ...payload([file()]), turnId } });
  const undone = (id: string, seq: number, turnId: string): TimelineItem => ({ ...base, id, seq, kind: "fact", factKind: "changes_undone", text: "", payload: { turnId, result: result({ restored: ["src/a.ts"] }) } });

  it("offers Restore on user messages before the last Changed files card only", () => {
    const index = checkpointIndex([user("m3", 7), user("m1", 1), changed("f1", 3, "t1"), user("m2", 4), changed("f2", 6, "t2")]);
    expect([...index.restorable].sort()).toEqual(["m1", "m2"]);
    expect(checkpointIndex([user("m1", 1), user("m2", 2)]).restorable.size).toBe(0);
  });

  it("a Changed files fact with an unreadable payload offers nothing", () => {
    const broken: TimelineItem = { ...base, id: "f", seq: 2, kind: "fact", factKind: "changed_files", text: "", payload: { nope: true } };
    expect(checkpointIndex([user("m1", 1), broken]).restorable.size).toBe(0);
  });

  it("maps undone turns to their result, keeping the payload's own object", () => {
    const u = undone("u1", 5, "t1");
    const index = checkpointIndex([changed("f1", 3, "t1"), u]);
    expect(index.undone.get("t1")).toBe((u as { payload: { result: RewindResult } }).payload.result);
    expect(index.undone.has("t2")).toBe(false);
  });

  it("an undone restore is keyed by its restore fact, not mistaken for a turn", () => {
    const r = result({ restored: ["x"] });
    const undoneRestore: TimelineItem = { ...base, id: "u2", seq: 9, kind: "fact", factKind: "changes_undone", text: "", payload: { turnId: null, restoreId: "r1", result: r } };
    const index = checkpointIndex([changed("f1", 3, "t1"), undoneRestore]);
    expect(index.undoneRestores.get("r1")).toBe(r);
    expect(index.undone.size).toBe(0);
  });
});

describe("rewind texts", () => {
  it("summarises and advises", () => {
    expect(rewindSummary(result())).toBe("nothing to change");
    expect(rewindSummary(result({ restored: ["a", "b"], conflicts: [{ path: "c", reason: "x" }, { path: "d", reason: "y" }] }))).toBe("2 restored, 2 left as they are");
    expect(rewindErrorAdvice("already_undone", "")).toContain("already undone");
    expect(rewindErrorAdvice("no_changes", "No files were changed after this message.")).toBe("No files were changed after this message.");
    expect(rewindErrorAdvice(null, "boom.")).toContain("boom.");
  });
});

describe("RestoreDialog", () => {
  it("explains that later edits are rewound, and confirms", async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<RestoreDialog open onOpenChange={() => {}} pending={false} error={null} onConfirm={onConfirm} />);
    const dialog = screen.getByTestId("restore-dialog");
    expect(dialog.textContent).toContain("your own later edits");
    expect(dialog.textContent).toContain("Files created since are removed");
    await user.click(screen.getByTestId("restore-confirm"));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("shows a refusal with what to do", () => {
    render(<RestoreDialog open onOpenChange={() => {}} pending={false} error={{ code: "turn_running", message: "running" }} onConfirm={() => {}} />);
    expect(screen.getByTestId("restore-error").textContent).toContain("Wait for it to finish");
  });
});
