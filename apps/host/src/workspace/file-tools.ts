import { formatIssues } from "@seam/shared";
import type { z } from "zod";
import { HostError } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { ToolDef } from "../agent/tool.js";
import { commit, renderChange, type AfterWrite, type ChangeContext, type ChangeLimits, type FileChange, type Plan } from "./change.js";
import type { Ledger } from "./ledger.js";
import { workspaceTool } from "./tool.js";

/** What write_file and edit_file share: the session read ledger, limits and the after-write hook. */
export interface FileToolDeps {
  ledger: Ledger;
  limits?: ChangeLimits;
  afterWrite?: AfterWrite;
  log?: Log;
}

/**
 * A file-changing tool: compute the plan (the same code the preview runs), then commit it. So a
 * preview shows exactly the diff the call makes, and fails exactly when the call would.
 */
export function changeTool<S extends z.ZodType>(name: string, input: S, plan: (ledger: Ledger, ctx: ChangeContext, args: z.output<S>, limits?: ChangeLimits) => Promise<Plan>, deps: FileToolDeps): ToolDef {
  const log = deps.log ?? createLog("workspace");
  return workspaceTool(
    name,
    input,
    async (args, ctx) => {
      const change = await commit(await plan(deps.ledger, ctx, args, deps.limits), deps.ledger, ctx, { afterWrite: deps.afterWrite, log });
      return { canonical: change, rendered: renderChange(change) };
    },
    {
      effect: "write",
      // The approval card shows the diff this exact call would make (PERM-3).
      preview: async (args, ctx) => {
        const { change } = await plan(deps.ledger, ctx, args, deps.limits);
        const verb = change.action === "created" ? "Create" : change.action === "replaced" ? "Replace" : "Edit";
        return {
          summary: `${verb} ${change.path} (+${change.added} −${change.removed})`,
          diff: { path: change.path, patch: change.diff, added: change.added, removed: change.removed },
        };
      },
    },
  );
}

/** A preview over unchecked arguments: invalid ones fail as the tool runtime would fail them. */
export function previewOf<S extends z.ZodType>(input: S, plan: (ledger: Ledger, ctx: ChangeContext, args: z.output<S>, limits?: ChangeLimits) => Promise<Plan>) {
  return async (ledger: Ledger, ctx: ChangeContext, args: unknown, limits?: ChangeLimits): Promise<FileChange> => {
    const parsed = input.safeParse(args);
    if (!parsed.success) throw new HostError("bad_input:workspace", formatIssues(parsed.error, { root: "(arguments)" }), { reason: "invalid_arguments" });
    return (await plan(ledger, ctx, parsed.data, limits)).change;
  };
}
