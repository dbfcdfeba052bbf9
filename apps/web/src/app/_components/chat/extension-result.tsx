"use client";
import type { ToolCallItem } from "@seam/shared";
import { ArrowRightIcon, XIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { HALF_LABEL } from "../extensions/half-source";
import { SourceView } from "../extensions/source-diff";
import { ModelTextDetails } from "./model-text-details";

const DefineArgs = z.object({
  name: z.string(),
  purpose: z.string().optional(),
  host: z.string().nullish(),
  browser: z.string().nullish(),
});
type DefineArgs = z.infer<typeof DefineArgs>;
const DefineResult = z.object({ name: z.string(), version: z.number(), hash: z.string().optional(), created: z.boolean().optional() });

const ErrorShape = z.object({ code: z.string(), message: z.string().optional() });

export function isExtensionTool(name: string): boolean {
  return name.startsWith("extension_");
}

/** The card's one-line summary for `extension_define`: the name, what it is for, and its halves. */
export function extensionSummary(call: Pick<ToolCallItem, "name" | "args">): string | null {
  if (call.name !== "extension_define") return null;
  const a = DefineArgs.safeParse(call.args);
  if (!a.success) return null;
  const halves = [a.data.host ? "host" : null, a.data.browser ? "browser" : null].filter(Boolean).join(" + ");
  const purpose = a.data.purpose ? ` — ${a.data.purpose.replace(/\s+/g, " ").slice(0, 80)}` : "";
  return `${a.data.name}${halves ? ` (${halves})` : ""}${purpose}`;
}

/** A refusal of an `extension_*` tool, from the call's error or its canonical `{ error: { code } }`. */
export function extensionRefusalOf(call: Pick<ToolCallItem, "name" | "status" | "canonical" | "error">): { code: string; message: string } | null {
  if (!isExtensionTool(call.name) || call.status === "running") return null;
  if (call.error) return { code: call.error.code, message: call.error.message };
  const c = call.canonical as { error?: unknown } | null;
  const e = ErrorShape.safeParse(c && typeof c === "object" ? c.error : undefined);
  return e.success ? { code: e.data.code, message: e.data.message ?? "" } : null;
}

/** What each EXT-1 refusal means and what to do about it. */
const REFUSAL: Record<string, string> = {
  definition_missing: "No extension of that name is defined in this session. extension_inspect lists this session's packages.",
  host_half_failed: "The host half failed to start, crashed or exceeded a limit. Its last failure and logs are on the Extensions page.",
  browser_half_failed: "The browser half failed to render in the page. The failure is on the Extensions page and in extension_inspect.",
  rejected: "You (or another window) declined to run this version. Nothing ran.",
  cancelled: "The turn ended before the run request was answered. Nothing ran.",
  not_running: "The extension is not running. extension_run starts it again.",
  syntax_error: "A half does not parse, so nothing was recorded. The message names the half and the line.",
};

export function ExtensionRefusal({ code, message }: { code: string; message: string }) {
  const meaning = REFUSAL[code];
  return (
    <div data-testid="extension-refusal" data-code={code} className="mb-2 flex items-start gap-2 rounded-md border border-destructive/25 bg-destructive-soft/60 p-2.5 text-[12.5px]">
      <XIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
      <div className="flex min-w-0 flex-col gap-1">
        <Badge tone="danger" data-testid="extension-refusal-code" className="w-fit font-mono">
          {code}
        </Badge>
        {message && <p className="whitespace-pre-wrap break-words leading-relaxed">{message}</p>}
        {meaning && <p className="text-muted-foreground">{meaning}</p>}
        {(code === "host_half_failed" || code === "browser_half_failed") && (
          <Link href="/extensions#runs" className="inline-flex w-fit items-center gap-1 text-[12px] font-medium text-primary hover:underline">
            Open Extensions → Runs <ArrowRightIcon className="size-3.5" />
          </Link>
        )}
      </div>
    </div>
  );
}

/**
 * The Result tab of an `extension_define` card: name, version, purpose and each half's source as the
 * model wrote it. Nothing runs at define time; running asks for approval.
 */
export function ExtensionDefineResult({ call, modelText }: { call: ToolCallItem; modelText: ReactNode }) {
  const args = DefineArgs.safeParse(call.args);
  const result = DefineResult.safeParse(call.canonical);
  const refusal = extensionRefusalOf(call);
  if (!args.success) return <>{modelText}</>;
  const def: DefineArgs = args.data;
  return (
    <div data-testid="extension-define-result" data-package={def.name} className="flex flex-col gap-2.5 rounded-md border bg-background p-2.5">
      {refusal && <ExtensionRefusal {...refusal} />}
      <div className="flex flex-wrap items-center gap-1.5 text-[12.5px]">
        <span className="font-mono font-medium">{def.name}</span>
        {result.success && (
          <Badge tone="accent" data-testid="extension-define-version">
            v{result.data.version}
          </Badge>
        )}
        {result.success && result.data.hash && (
          <span className="font-mono text-[11.5px] text-muted-foreground" title={`sha256 ${result.data.hash}`}>
            {result.data.hash.slice(0, 10)}
          </span>
        )}
        {result.success && result.data.created === false && <Badge tone="outline">unchanged</Badge>}
      </div>
      {def.purpose && (
        <p data-testid="extension-define-purpose" className="text-[13px] leading-relaxed">
          {def.purpose}
        </p>
      )}
      {(["host", "browser"] as const).map((half) => {
        const code = def[half];
        if (!code) return null;
        return (
          <section key={half} className="flex flex-col gap-1">
            <span className="text-[12px] font-medium">{HALF_LABEL[half]}</span>
            <SourceView code={code} testId={`extension-define-${half}`} />
          </section>
        );
      })}
      {!refusal && (
        <p className="text-[12px] text-muted-foreground">
          Defined, not running. Running it asks you first; versions and runs are on the{" "}
          <Link href="/extensions" className="font-medium text-primary hover:underline">
            Extensions page
          </Link>
          .
        </p>
      )}
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}
