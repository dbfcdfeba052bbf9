"use client";
import { useState } from "react";
import { cn } from "@/lib/utils";
import { SourceDiff, SourceView } from "./source-diff";

export type Half = "host" | "browser";
export const HALF_LABEL: Record<Half, string> = { host: "Host half", browser: "Browser half" };

/**
 * One half's source in a run request: the diff against the last approved version when there is one
 * (with the full source one click away), otherwise the full source.
 */
export function HalfSource({
  half,
  code,
  previous,
}: {
  half: Half;
  code: string | null;
  /** The last approved version and its code for this half (null code = that version had no such half). */
  previous: { version: number; code: string | null } | null;
}) {
  const [full, setFull] = useState(false);
  if (code === null && (previous === null || previous.code === null)) return null;
  const diffable = previous !== null;
  const note = !previous
    ? "full source"
    : code === null
      ? `removed since v${previous.version}`
      : previous.code === null
        ? `new since v${previous.version}`
        : `changes since v${previous.version}`;
  return (
    <section data-testid="half-source" data-half={half} className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2 text-[12px]">
        <span>
          <span className="font-medium">{HALF_LABEL[half]}</span>
          <span className="text-muted-foreground"> · {note}</span>
        </span>
        {diffable && code !== null && (
          <span className="inline-flex rounded-md bg-muted p-0.5">
            <Toggle active={!full} onClick={() => setFull(false)}>
              Diff
            </Toggle>
            <Toggle active={full} onClick={() => setFull(true)}>
              Full source
            </Toggle>
          </span>
        )}
      </div>
      {previous && !(full && code !== null) ? (
        <SourceDiff before={previous.code ?? ""} after={code ?? ""} testId={`${half}-diff`} />
      ) : (
        <SourceView code={code ?? ""} testId={`${half}-source`} />
      )}
    </section>
  );
}

function Toggle({ active, onClick, children }: { active: boolean; onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn("cursor-pointer rounded px-1.5 py-0.5 text-[11px] font-medium text-muted-foreground hover:text-foreground", active && "bg-card text-foreground shadow-xs")}
    >
      {children}
    </button>
  );
}
