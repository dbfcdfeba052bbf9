"use client";
import type { ToolCallItem } from "@seam/shared";
import { ScissorsIcon, SettingsIcon, XIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { ModelTextDetails } from "./model-text-details";
import { MarkdownText } from "./markdown";

/** The `lsp` tool's canonical result (LSP-3): 1-based lines, UTF-16 characters. */
const LspLocation = z.object({
  path: z.string(),
  line: z.number(),
  character: z.number(),
  endLine: z.number().nullish(),
  endCharacter: z.number().nullish(),
  excerpt: z.string().nullish(),
});
type LspLocation = z.infer<typeof LspLocation>;

const LspToolResult = z.object({
  operation: z.string(),
  locations: z.array(LspLocation).default([]),
  hover: z.object({ markdown: z.string() }).nullish(),
  truncated: z.boolean().optional(),
});
type LspToolResult = z.infer<typeof LspToolResult>;

const LspToolError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type LspView = { kind: "result"; result: LspToolResult } | { kind: "error"; code: string; message: string };

export function lspViewOf(call: Pick<ToolCallItem, "name" | "status" | "canonical" | "error">): LspView | null {
  if (call.name !== "lsp" || call.status === "running") return null;
  const failed = LspToolError.safeParse(call.canonical);
  if (failed.success) return { kind: "error", ...failed.data.error };
  if (call.status === "error" || call.error) return call.error ? { kind: "error", code: call.error.code, message: call.error.message } : null;
  const r = LspToolResult.safeParse(call.canonical);
  return r.success ? { kind: "result", result: r.data } : null;
}

const OPERATION: Record<string, { label: string; noun: [string, string]; none: string }> = {
  goToDefinition: { label: "Definition", noun: ["definition", "definitions"], none: "No definition found at this position." },
  findReferences: { label: "References", noun: ["reference", "references"], none: "No references found." },
  goToImplementation: { label: "Implementations", noun: ["implementation", "implementations"], none: "No implementation found." },
  hover: { label: "Hover", noun: ["location", "locations"], none: "No hover information at this position." },
};

/**
 * The Result tab of an `lsp` card: locations as `path:line:col` with their source line (the symbol's
 * range highlighted), hover as Markdown, "no results" plainly, failures as code and message.
 * `modelText` is the text the model saw, one click away.
 */
export function LspResult({ view, modelText }: { view: LspView; modelText: ReactNode }) {
  if (view.kind === "error") return <LspError code={view.code} message={view.message} modelText={modelText} />;
  const { result } = view;
  const op = OPERATION[result.operation] ?? { label: result.operation, noun: ["location", "locations"] as [string, string], none: "No results." };
  const n = result.locations.length;
  const hover = result.hover?.markdown.trim() ? result.hover.markdown : null;
  const empty = n === 0 && !hover;
  return (
    <div data-testid="lsp-result" data-operation={result.operation} data-count={n} className="flex flex-col gap-2 rounded-md border bg-background p-2.5">
      <div className="flex items-baseline justify-between gap-2 text-[11.5px] text-muted-foreground">
        <span className="font-medium">
          {op.label}
          {n > 0 && ` · ${n} ${n === 1 ? op.noun[0] : op.noun[1]}`}
        </span>
        <span className="font-mono">{result.operation}</span>
      </div>
      {empty && (
        <p data-testid="lsp-empty-result" className="text-[12.5px] text-muted-foreground">
          {op.none}
        </p>
      )}
      {hover && (
        <div data-testid="lsp-hover" className="px-0.5 [&_.prose]:text-[13px] [&_.prose]:leading-relaxed [&_.prose_p]:my-1.5">
          <MarkdownText text={hover} />
        </div>
      )}
      {n > 0 && (
        <ol className="scroll-thin flex max-h-96 flex-col overflow-auto rounded-md border">
          {result.locations.map((loc, i) => (
            <LocationRow key={`${i}:${loc.path}:${loc.line}:${loc.character}`} loc={loc} />
          ))}
        </ol>
      )}
      {result.truncated && (
        <p data-testid="lsp-truncated" className="flex items-center gap-1.5 text-[11.5px] text-muted-foreground">
          <ScissorsIcon className="size-3 shrink-0" />
          More results were found than the tool returns; only the first {n} are listed. A narrower position gives fewer.
        </p>
      )}
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}

function LocationRow({ loc }: { loc: LspLocation }) {
  const slash = loc.path.lastIndexOf("/");
  const dir = slash >= 0 ? loc.path.slice(0, slash + 1) : "";
  const file = loc.path.slice(slash + 1);
  const position = `${loc.path}:${loc.line}:${loc.character}`;
  const lines = (loc.excerpt ?? "").replace(/\s+$/, "").split("\n");
  return (
    <li data-testid="lsp-location" data-path={loc.path} data-line={loc.line} data-character={loc.character} className="flex flex-col gap-1 border-b px-2.5 py-2 last:border-b-0">
      <span data-testid="lsp-location-position" className="min-w-0 truncate font-mono text-[12px]" title={position}>
        <span className="text-muted-foreground">{dir}</span>
        <span className="font-medium">{file}</span>
        <span className="text-muted-foreground">
          :{loc.line}:{loc.character}
        </span>
      </span>
      {loc.excerpt?.trim() && (
        <pre data-testid="lsp-location-excerpt" className="scroll-thin overflow-x-auto rounded bg-code px-2 py-1 font-mono text-[12px] leading-[1.5]">
          {lines.map((text, i) => (
            <div key={i}>{i === 0 ? <Highlighted text={text} loc={loc} /> : text || " "}</div>
          ))}
        </pre>
      )}
    </li>
  );
}

/**
 * The excerpt's first line with the symbol range marked. Columns are 1-based UTF-16 code units, which
 * is exactly how JavaScript indexes strings; a range that spans lines or falls outside the text is
 * left unmarked rather than guessed.
 */
function Highlighted({ text, loc }: { text: string; loc: LspLocation }) {
  const start = loc.character - 1;
  const end = loc.endLine == null || loc.endLine === loc.line ? (loc.endCharacter ?? 0) - 1 : -1;
  if (start < 0 || end <= start || end > text.length) return <>{text || " "}</>;
  return (
    <>
      {text.slice(0, start)}
      <mark data-testid="lsp-location-symbol" className="rounded-sm bg-primary-soft px-px text-primary-soft-foreground">
        {text.slice(start, end)}
      </mark>
      {text.slice(end)}
    </>
  );
}

/** What to do about a failed `lsp` call, in words (the host's message says what happened). */
const WHAT_TO_DO: Record<string, string> = {
  operation_unsupported: "This language server does not implement that operation. Another operation, grep or read_file may answer instead.",
  no_server: "No language server handles this file type. Add or turn one on in Settings → Language servers.",
  server_failed: "The language server failed twice in a row. Its stderr is in Settings → Language servers; restart it there.",
  server_exited: "The language server exited. Its stderr is in Settings → Language servers; restart it there.",
  server_error: "The language server answered with an error. Its stderr is in Settings → Language servers.",
  server_stopped: "The language server was stopped or removed while the call ran.",
  timeout: "The language server did not answer in time; it may still be indexing a large project. Asking again usually works.",
  invalid_position: "Lines and characters are 1-based, and the character counts UTF-16 code units (an emoji counts 2).",
  not_found: "Check the path: it is relative to the session's workspace.",
  not_a_file: "Point at a source file, not a folder.",
  file_too_large: "The file is larger than the lsp tool reads; grep or read_file work on it.",
  outside_workspace: "Only files inside the session's workspace can be queried.",
  access_denied: "Only files inside the session's workspace can be queried.",
  no_workspace: "The session has no workspace folder.",
};

const SETTINGS_CODES = new Set(["no_server", "server_failed", "server_exited", "server_error"]);

function LspError({ code, message, modelText }: { code: string; message: string; modelText: ReactNode }) {
  const todo = WHAT_TO_DO[code];
  const settings = SETTINGS_CODES.has(code);
  return (
    <div data-testid="lsp-tool-error" data-code={code} className="flex flex-col gap-2 rounded-md border border-destructive/25 bg-destructive-soft/60 p-2.5 text-[12.5px]">
      <div className="flex items-start gap-2">
        <XIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
        <div className="flex min-w-0 flex-col gap-1">
          <Badge tone="danger" data-testid="lsp-error-code" className="w-fit font-mono">
            {code}
          </Badge>
          <p data-testid="lsp-error-message" className="break-words leading-relaxed">
            {message}
          </p>
          {todo && <p className="text-muted-foreground">{todo}</p>}
          {settings && (
            <Link href="/settings#lsp" className="inline-flex w-fit items-center gap-1 text-[12px] font-medium text-primary hover:underline">
              <SettingsIcon className="size-3.5" /> Open Settings → Language servers
            </Link>
          )}
        </div>
      </div>
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}

