import { readFileSync } from "node:fs";
import { LspOperation } from "@seam/shared";
import { z } from "zod";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { HostError } from "../core/errors.js";
import type { QueryInput, QueryResult } from "./pool.js";
import { DEFAULT_RENDER_LIMITS, renderQuery, type RenderLimits } from "./render.js";

const description = readFileSync(new URL("./lsp.md", import.meta.url), "utf8").trim();

export const LSP_TIMEOUT_MS = 60_000;

export const GUIDANCE = "Prefer grep and read_file to search for text and to read code; they are faster and show more. "
  + "Use lsp when you need an exact symbol relation that text search cannot settle: the definition a name resolves to, "
  + "every reference to a symbol (not just matching text), the implementations of an interface, or a type from hover. "
  + "Read the returned locations with read_file before relying on them.";

export const LspToolInput = z.object({
  operation: LspOperation.describe("goToDefinition | findReferences | goToImplementation | hover"),
  filePath: z.string().min(1).describe("File path, relative to the workspace root"),
  line: z.number().int().min(1).describe("1-based line of the symbol"),
  character: z.number().int().min(1).describe("1-based column of the symbol in UTF-16 code units (an emoji counts 2)"),
  includeDeclaration: z.boolean().optional().describe("findReferences only: also list the symbol's declaration (default false)"),
});

export interface LspToolDeps {
  query(input: QueryInput): Promise<QueryResult>;
  /** The extensions routed now, shown to the model. */
  extensions: readonly string[];
  limits?: Partial<RenderLimits>;
}

/** The `lsp` tool (LSP-3): read-only, the calling session's workspace only, 60 s. */
export function lspTool(deps: LspToolDeps): ToolDef {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...deps.limits };
  const handled = deps.extensions.length > 0 ? `\nFiles handled now: ${deps.extensions.join(" ")}.` : "";
  return defineTool({
    name: "lsp",
    description: `${description}${handled}`,
    capability: "lsp",
    input: LspToolInput,
    guidance: GUIDANCE,
    timeoutMs: LSP_TIMEOUT_MS,
    maxRenderedChars: limits.maxChars + 500,
    async run(args, ctx) {
      if (!ctx.workspace) throw new HostError("bad_input:lsp", "This session has no workspace, so there is nothing to ask a language server about.", { reason: "no_workspace" });
      const result = await deps.query({ workspace: ctx.workspace, filePath: args.filePath, operation: args.operation, line: args.line, character: args.character, includeDeclaration: args.includeDeclaration, signal: ctx.signal });
      return renderQuery(result, args, limits);
    },
  });
}
