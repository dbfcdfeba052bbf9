"use client";
import type { ToolCallItem } from "@seam/shared";
import type { ReactNode } from "react";
import { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { formatBytes } from "@/lib/format";
import { ModelTextDetails } from "../chat/model-text-details";
import { PatchDiff } from "../diff/patch-diff";

/** edit_file / write_file's canonical result (CODE-1). */
const EditResult = z.object({
  path: z.string(),
  action: z.string().nullish(),
  diff: z.string().nullish(),
  added: z.number().nullish(),
  removed: z.number().nullish(),
  bytes: z.number().nullish(),
});
const PathArgs = z.object({ path: z.string() });

export interface EditView {
  path: string;
  /** created, replaced, edited; null before the call ended. */
  action: string | null;
  diff: string | null;
  added: number | null;
  removed: number | null;
  bytes: number | null;
}

export const isEditTool = (name: string) => name === "edit_file" || name === "write_file";

/** What an edit card shows, or null for other tools (or arguments without a path). */
export function editViewOf(call: Pick<ToolCallItem, "name" | "args" | "canonical">): EditView | null {
  if (!isEditTool(call.name)) return null;
  const r = EditResult.safeParse(call.canonical);
  if (r.success) {
    const d = r.data;
    return { path: d.path, action: d.action ?? null, diff: d.diff ?? null, added: d.added ?? null, removed: d.removed ?? null, bytes: d.bytes ?? null };
  }
  const a = PathArgs.safeParse(call.args);
  return a.success ? { path: a.data.path, action: null, diff: null, added: null, removed: null, bytes: null } : null;
}

const ACTION: Record<string, string> = { created: "Created", replaced: "Replaced", edited: "Edited" };

/** The Result tab of an edit card: the path, what happened, and the diff with its counts. */
export function EditResultView({ view, modelText }: { view: EditView; modelText: ReactNode }) {
  return (
    <div data-testid="edit-result" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-[12px] text-muted-foreground">
        {view.action && (
          <Badge data-testid="edit-action" tone={view.action === "created" ? "success" : "accent"}>
            {ACTION[view.action] ?? view.action}
          </Badge>
        )}
        <span data-testid="edit-path" className="font-mono text-foreground">
          {view.path}
        </span>
        {view.bytes !== null && <span>{formatBytes(view.bytes)}</span>}
      </div>
      {view.diff !== null ? <PatchDiff patch={view.diff} testId="edit-diff" /> : <p className="text-[12.5px] text-muted-foreground">No diff in this result.</p>}
      {modelText && <ModelTextDetails>{modelText}</ModelTextDetails>}
    </div>
  );
}
