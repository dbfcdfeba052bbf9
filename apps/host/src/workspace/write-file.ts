import { z } from "zod";
import type { ToolDef } from "../agent/tool.js";
import { planWrite } from "./change.js";
import { changeTool, previewOf, type FileToolDeps } from "./file-tools.js";

export const WriteFileInput = z.object({
  path: z.string().min(1).describe("File path, relative to the workspace root"),
  content: z.string().describe("The whole new content of the file"),
});

/** write_file (CODE-1): creates a file (and its folders) or replaces one this session has read. */
export const writeFileTool = (deps: FileToolDeps): ToolDef => changeTool("write_file", WriteFileInput, planWrite, deps);

/** The change write_file would make, without writing (PERM-3); throws what write_file would throw. */
export const previewWrite = previewOf(WriteFileInput, planWrite);
