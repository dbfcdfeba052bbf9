"use client";
import type { McpImportAction, McpImportEntry, McpImportPreview, McpImportResult } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { FileUpIcon, LoaderCircleIcon } from "lucide-react";
import { useMemo, useRef, useState, type ChangeEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FieldError, FieldHint, Textarea } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { entryIssueLines, fileSizeError, importErrorText, pasteSizeError } from "./import-errors";
import { ProbeFailure } from "./probe-outcome";
import { failureOf } from "./save-state";
import { useInvalidateMcp } from "./use-mcp";

const PLACEHOLDER = `{
  "mcpServers": {
    "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] },
    "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${REMOTE_TOKEN}" } }
  }
}`;

const TONE: Record<McpImportAction, "success" | "accent" | "neutral" | "danger"> = { add: "success", update: "accent", unchanged: "neutral", invalid: "danger" };

/** Paste or upload a `{"mcpServers": …}` document, preview what changes, apply the selected entries. */
export function ImportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl" aria-describedby="mcp-import-desc">
        {open && <ImportFlow onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ImportFlow({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateMcp();
  const file = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [fileError, setFileError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [result, setResult] = useState<McpImportResult | null>(null);

  const preview = useMutation(
    trpc.mcp.importPreview.mutationOptions({
      onSuccess: (p: McpImportPreview) => setSelected(new Set(p.entries.filter((e) => e.action === "add" || e.action === "update").map((e) => e.name))),
    }),
  );
  const apply = useMutation(
    trpc.mcp.importApply.mutationOptions({
      onSuccess: (r) => {
        setResult(r);
        invalidate();
      },
    }),
  );
  // "Save anyway" for one server whose try failed: applied alone, without the try; the outcome replaces its line.
  const force = useMutation(
    trpc.mcp.importApply.mutationOptions({
      onSuccess: (r, { names }) => {
        const name = names?.[0];
        setResult((prev) => prev && {
          applied: [...prev.applied, ...r.applied],
          skipped: prev.skipped,
          failed: [...prev.failed.filter((f) => f.name !== name), ...r.failed],
        });
        invalidate();
      },
    }),
  );
  const tooBig = useMemo(() => pasteSizeError(text), [text]);

  const edit = (next: string) => {
    setText(next);
    setResult(null);
    if (preview.data || preview.error) preview.reset();
    apply.reset();
  };
  const load = async (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    e.target.value = "";
    if (!f) return;
    const big = fileSizeError(f);
    if (big) return setFileError(big);
    setFileError(null);
    const content = await f.text();
    edit(content);
    if (!pasteSizeError(content)) preview.mutate({ json: content });
  };

  const entries = preview.data?.entries ?? [];
  const applicable = entries.filter((e) => e.action === "add" || e.action === "update");
  const chosen = applicable.filter((e) => selected.has(e.name)).map((e) => e.name);

  return (
    <>
      <DialogHeader>
        <DialogTitle>Import MCP servers</DialogTitle>
        <DialogDescription id="mcp-import-desc">
          Paste the <code className="font-mono">{'{"mcpServers": …}'}</code> block from Claude Desktop, Cursor, Cline or Claude Code, or choose the file.
          Secret values are never stored: they become references to host environment variables. Each new server is tried
          before it is saved; one that fails is listed with the reason and can be saved anyway.
        </DialogDescription>
      </DialogHeader>
      <div className="scroll-thin -mx-1 flex min-h-0 flex-col gap-3 overflow-y-auto px-1">
        <Textarea
          data-testid="mcp-import-text"
          aria-label="Config JSON"
          rows={preview.data ? 5 : 10}
          className="resize-y font-mono text-[12.5px] leading-[1.5]"
          placeholder={PLACEHOLDER}
          value={text}
          onChange={(e) => edit(e.target.value)}
          spellCheck={false}
        />
        <div className="flex flex-wrap items-center gap-2">
          <Button data-testid="mcp-import-preview-button" disabled={!text.trim() || tooBig !== null || preview.isPending} onClick={() => preview.mutate({ json: text })}>
            {preview.isPending && <LoaderCircleIcon className="animate-spin" />} Preview
          </Button>
          <Button variant="outline" onClick={() => file.current?.click()}>
            <FileUpIcon /> Choose file…
          </Button>
          <input ref={file} type="file" accept=".json,.jsonc,application/json" className="hidden" data-testid="mcp-import-file" onChange={(e) => void load(e)} />
          <FieldHint>Comments and trailing commas are fine.</FieldHint>
        </div>
        {(fileError || tooBig || preview.error) && (
          <FieldError data-testid="mcp-import-error" className="rounded-lg bg-destructive-soft px-3 py-2 text-[13px]">
            {fileError ?? tooBig ?? importErrorText(preview.error)}
          </FieldError>
        )}
        {preview.data && <PreviewTable preview={preview.data} selected={selected} onSelect={setSelected} result={result} />}
        {apply.error && <FieldError className="rounded-lg bg-destructive-soft px-3 py-2 text-[13px]">{importErrorText(apply.error)}</FieldError>}
        {force.error && <FieldError className="rounded-lg bg-destructive-soft px-3 py-2 text-[13px]">{importErrorText(force.error)}</FieldError>}
        {result && <ResultSummary result={result} busy={force.isPending} onSaveAnyway={(name) => force.mutate({ json: text, names: [name], force: [name] })} />}
      </div>
      <DialogFooter>
        <Button variant="ghost" onClick={onDone}>
          {result ? "Close" : "Cancel"}
        </Button>
        {preview.data && !result && (
          <Button data-testid="mcp-import-apply" disabled={chosen.length === 0 || apply.isPending} onClick={() => apply.mutate({ json: text, names: chosen })}>
            {apply.isPending ? <><LoaderCircleIcon className="animate-spin" /> Trying the servers…</> : `Apply ${chosen.length} selected`}
          </Button>
        )}
      </DialogFooter>
    </>
  );
}

function PreviewTable({ preview, selected, onSelect, result }: { preview: McpImportPreview; selected: Set<string>; onSelect: (s: Set<string>) => void; result: McpImportResult | null }) {
  const flip = (name: string) => {
    const next = new Set(selected);
    if (!next.delete(name)) next.add(name);
    onSelect(next);
  };
  return (
    <div data-testid="mcp-import-preview" className="flex flex-col gap-2">
      {preview.warnings.map((w) => (
        <p key={w} className="text-[12px] text-muted-foreground">{w}</p>
      ))}
      {preview.entries.length > 0 && (
        <div className="overflow-x-auto rounded-lg border bg-card">
          <table className="w-full border-collapse text-[12.5px]">
            <thead>
              <tr className="border-b bg-muted/50 text-left text-[11.5px] text-muted-foreground">
                <th className="w-8 px-2 py-1.5"><span className="sr-only">Apply</span></th>
                <th className="px-2 py-1.5 font-medium">Server</th>
                <th className="px-2 py-1.5 font-medium">Action</th>
                <th className="px-2 py-1.5 font-medium">Details</th>
              </tr>
            </thead>
            <tbody>
              {preview.entries.map((e) => (
                <PreviewRow key={e.name} entry={e} format={preview.format} checked={selected.has(e.name)} onFlip={() => flip(e.name)} locked={result !== null} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function PreviewRow({ entry, format, checked, onFlip, locked }: {
  entry: McpImportEntry;
  format: McpImportPreview["format"];
  checked: boolean;
  onFlip: () => void;
  locked: boolean;
}) {
  const applicable = entry.action === "add" || entry.action === "update";
  const t = entry.config?.transport;
  return (
    <tr data-testid="mcp-import-row" data-server={entry.name} data-action={entry.action} className="border-b align-top last:border-b-0">
      <td className="px-2 py-2">
        <input type="checkbox" aria-label={`Apply ${entry.name}`} className="size-4 accent-primary" checked={applicable && checked} disabled={!applicable || locked} onChange={onFlip} />
      </td>
      <td className="px-2 py-2">
        <div className="font-mono font-medium">{entry.name}</div>
        {t && <div className="max-w-56 truncate font-mono text-[11px] text-muted-foreground">{t.type === "stdio" ? [t.command, ...t.args].join(" ") : t.url}</div>}
      </td>
      <td className="px-2 py-2">
        <Badge tone={TONE[entry.action]}>{entry.action}</Badge>
      </td>
      <td className="px-2 py-2 leading-relaxed">
        {entry.changes.length > 0 && <div className="text-muted-foreground">changes: <span className="font-mono">{entry.changes.join(", ")}</span></div>}
        {entryIssueLines(entry, format).map((line) => (
          <div key={line} data-testid="mcp-import-issue" className="text-destructive">{line}</div>
        ))}
        {entry.warnings.map((w) => (
          <div key={w} data-testid="mcp-import-warning" className="text-warning">{w}</div>
        ))}
        {entry.action === "unchanged" && !entry.warnings.length && <span className="text-muted-foreground">Same as the saved config.</span>}
      </td>
    </tr>
  );
}

function ResultSummary({ result, busy, onSaveAnyway }: { result: McpImportResult; busy: boolean; onSaveAnyway: (name: string) => void }) {
  const added = result.applied.filter((a) => a.action === "add").length;
  const updated = result.applied.length - added;
  return (
    <div data-testid="mcp-import-result" role="status" className="rounded-lg border bg-muted/40 px-3 py-2 text-[13px]">
      <p>
        {added > 0 && `Added ${added}. `}
        {updated > 0 && `Updated ${updated}. `}
        {result.applied.length === 0 && "Nothing was saved. "}
        {result.failed.length > 0 && `${result.failed.length} could not be saved:`}
      </p>
      {result.failed.map((f) => {
        const failure = f.probe ? failureOf({ data: { mcpProbe: f.probe } }) : null;
        return failure ? (
          <div key={f.name} data-server={f.name} className="mt-2 flex flex-col gap-1">
            <span className="font-mono font-medium">{f.name}</span>
            <ProbeFailure failure={failure} testId="mcp-import-probe-error" busy={busy} onSaveAnyway={() => onSaveAnyway(f.name)} />
          </div>
        ) : (
          <p key={f.name} className="text-destructive">
            <span className="font-mono">{f.name}</span>: {f.message}
          </p>
        );
      })}
    </div>
  );
}
