import { z } from "zod";
import type { ToolDef } from "../agent/tool.js";
import { planEdit } from "./change.js";
import { changeTool, previewOf, type FileToolDeps } from "./file-tools.js";

export const MAX_EDITS = 100;

export const EditFileInput = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace root"),
  edits: z
    .array(
      z.object({
        old_string: z.string().describe("Exact text to replace, including whitespace and indentation; must match exactly once unless replace_all"),
        new_string: z.string().describe("The text to put in its place"),
        replace_all: z.boolean().optional().describe("Replace every occurrence of old_string (default false)"),
      }),
    )
    .min(1)
    .max(MAX_EDITS)
    .describe("Replacements applied in order to the file's text; all of them apply or none does"),
});

/** edit_file (CODE-1): exact-match replacements, in order, all or nothing, on a file this session has read. */
export const editFileTool = (deps: FileToolDeps): ToolDef => changeTool("edit_file", EditFileInput, planEdit, deps);

/** The change edit_file would make, without writing (PERM-3); throws what edit_file would throw. */
export const previewEdit = previewOf(EditFileInput, planEdit);
