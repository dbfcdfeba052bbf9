import { describe, expect, it } from "vitest";
import type { SessionExport, TimelineItem } from "@seam/shared";
import { sessionMarkdown } from "../../src/agent/session-markdown.js";

const at = "2026-01-01T00:00:00.000Z";
const fact = (seq: number, factKind: string, text: string, payload: unknown): TimelineItem =>
  ({ kind: "fact", id: `f${seq}`, seq, turnId: null, createdAt: at, factKind, text, payload });
const doc = (items: TimelineItem[]): SessionExport => ({
  format: "seam.session", version: 1, exportedAt: at, session: { title: "T", workspace: "/ws", mode: null, createdAt: at }, turns: [], items,
});

describe("session Markdown export (CTX-5)", () => {
  it("CTX-2, CTX-5: facts without model-visible text are told in words or left out, never as an empty note", () => {
    const md = sessionMarkdown(doc([
      fact(1, "compaction_failed", "", { trigger: "auto", reason: "The model call failed: 500.", focus: null }),
      fact(2, "context_pruned", "", { itemIds: ["a", "b"], tokensBefore: 9000, tokensAfter: 4000, trigger: "auto" }),
      fact(3, "aux_request", "", { anything: true }),
      fact(4, "compaction", "Summary of the earlier conversation: x.", {}),
    ]));
    expect(md).toContain("> **Note (compaction_failed):** Compaction failed; the history was left as it was. The model call failed: 500.");
    expect(md).toContain("> **Note (context_pruned):** 2 old tool results replaced by stubs in the model's view.");
    expect(md).toContain("> **Note (compaction):** Summary of the earlier conversation: x.");
    expect(md).not.toContain("aux_request");
    expect(md).not.toMatch(/\):\*\* *\n/);
    expect(md).not.toContain("\n\n\n");
  });
});
