"use client";
import { ArrowDownIcon } from "lucide-react";
import { memo, useMemo, useRef, useState, type ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/utils";
import { ansiSegments, lastLines } from "./ansi";
import { useFollowScroll } from "./use-follow-scroll";

/** How many lines a block renders at first; the rest is one click away (the copy button has all). */
const SHOWN_LINES = 2_000;

/** Terminal output with its ANSI colours, as text (React escapes it; nothing is parsed as HTML). */
export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  const segments = useMemo(() => ansiSegments(text), [text]);
  return (
    <>
      {segments.map((s, i) =>
        s.style ? (
          <span key={i} style={s.style}>
            {s.text}
          </span>
        ) : (
          s.text
        ),
      )}
    </>
  );
});

/**
 * A terminal-styled block: dark, monospace, ANSI colours rendered. While `live`, it follows the output
 * unless the user scrolled up (then a "Follow" button brings it back).
 */
export function TerminalBlock({
  text,
  live = false,
  header,
  testId = "terminal-output",
  className,
  empty = "(no output)",
}: {
  text: string;
  live?: boolean;
  header?: ReactNode;
  testId?: string;
  className?: string;
  empty?: string;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const [all, setAll] = useState(false);
  const shown = useMemo(() => (all ? { text, hidden: 0 } : lastLines(text, SHOWN_LINES)), [text, all]);
  const { following, onScroll, follow } = useFollowScroll(ref, shown.text);
  return (
    <div className={cn("group/term relative overflow-hidden rounded-md border border-zinc-800 bg-zinc-950 text-zinc-100", className)}>
      {header && <div className="border-b border-zinc-800 px-2.5 py-1.5 font-mono text-[11.5px] text-zinc-400">{header}</div>}
      {shown.hidden > 0 && (
        <button
          type="button"
          data-testid={`${testId}-show-all`}
          className="w-full cursor-pointer border-b border-zinc-800 px-2.5 py-1 text-left text-[11.5px] text-zinc-400 hover:text-zinc-100"
          onClick={() => setAll(true)}
        >
          {shown.hidden.toLocaleString("en-US")} earlier line{shown.hidden === 1 ? "" : "s"} not shown — show all
        </button>
      )}
      <pre
        ref={ref}
        data-testid={testId}
        data-live={live || undefined}
        data-following={live ? following : undefined}
        onScroll={onScroll}
        className="scroll-thin max-h-80 overflow-auto whitespace-pre-wrap break-words p-2.5 font-mono text-[12px] leading-[1.5]"
      >
        {text ? <AnsiText text={shown.text} /> : <span className="text-zinc-500">{live ? "Waiting for output…" : empty}</span>}
      </pre>
      {text && (
        <div className="absolute right-1.5 top-1.5 opacity-0 transition-opacity focus-within:opacity-100 group-hover/term:opacity-100">
          <CopyButton text={text} className="bg-zinc-900 text-zinc-300 hover:bg-zinc-800" />
        </div>
      )}
      {live && !following && (
        <button
          type="button"
          data-testid={`${testId}-follow`}
          onClick={follow}
          className="absolute bottom-2 right-3 inline-flex cursor-pointer items-center gap-1 rounded-full bg-zinc-800 px-2.5 py-1 text-[11.5px] text-zinc-100 shadow hover:bg-zinc-700"
        >
          <ArrowDownIcon className="size-3" /> Follow
        </button>
      )}
    </div>
  );
}
