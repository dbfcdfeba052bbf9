"use client";
import { MCP_LOG_LEVELS, MCP_LOG_RING, type McpLogEntry, type McpLogLevel, type McpLogs } from "@seam/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { NativeSelect } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

const rank = (l: McpLogLevel) => MCP_LOG_LEVELS.indexOf(l);

const LEVEL_TONE: Record<McpLogLevel, string> = {
  debug: "text-muted-foreground",
  info: "text-foreground/85",
  notice: "text-foreground",
  warning: "text-warning",
  error: "text-destructive",
  critical: "text-destructive font-semibold",
  alert: "text-destructive font-semibold",
  emergency: "text-destructive font-bold",
};

/** One line as it is shown and copied. */
export const logLine = (e: McpLogEntry) => `${e.time.slice(11, 23)} ${e.level.toUpperCase().padEnd(9)}${e.logger ? `[${e.logger}] ` : ""}${e.text}`;

/** Merges a pushed entry into the fetched list: in seq order, once, at most the ring's size. */
export function withEntry(entries: McpLogEntry[], entry: McpLogEntry): McpLogEntry[] {
  if (entries.some((e) => e.seq === entry.seq)) return entries;
  const next = entries.length > 0 && entries.at(-1)!.seq > entry.seq ? [...entries, entry].sort((a, b) => a.seq - b.seq) : [...entries, entry];
  return next.length > MCP_LOG_RING ? next.slice(next.length - MCP_LOG_RING) : next;
}

/**
 * A server's log messages (`notifications/message`, MCP-12): the last 500 kept by the host, newest at the bottom, filtered
 * by a minimum level, live while the tab is open.
 */
export function ServerLogs({ name }: { name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [minLevel, setMinLevel] = useState<McpLogLevel>("debug");
  const options = trpc.mcp.logs.queryOptions({ name, minLevel: "debug" });
  const logs = useQuery({ ...options, staleTime: Number.POSITIVE_INFINITY });
  useLiveTopic("mcpLogs", {
    onStarted: () => void queryClient.invalidateQueries({ queryKey: options.queryKey }),
    onData: (event) => {
      if (event.server !== name) return;
      if ("cleared" in event) {
        void queryClient.invalidateQueries({ queryKey: options.queryKey });
        return;
      }
      queryClient.setQueryData<McpLogs>(options.queryKey, (old) => (old ? { ...old, entries: withEntry(old.entries, event.entry) } : old));
    },
  });
  const entries = useMemo(() => (logs.data?.entries ?? []).filter((e) => rank(e.level) >= rank(minLevel)), [logs.data, minLevel]);
  const text = useMemo(() => entries.map(logLine).join("\n"), [entries]);
  const scroller = useRef<HTMLDivElement>(null);
  // Newest at the bottom: follow new entries while the view is at the bottom.
  const atBottom = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [entries]);

  const setLevel = useMutation(
    trpc.mcp.setLogLevel.mutationOptions({ onSuccess: (next) => queryClient.setQueryData(options.queryKey, next) }),
  );
  const data = logs.data;
  const note = !data ? null : !data.supported ? "This server does not declare logging, or has not connected yet: nothing is asked of it." : null;
  return (
    <section data-testid="mcp-logs" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <h3 className="text-[13px] font-semibold">Logs</h3>
          <label className="flex items-center gap-1.5 text-[12px] text-muted-foreground">
            At least
            <NativeSelect data-testid="mcp-logs-level" value={minLevel} onChange={(e) => setMinLevel(e.target.value as McpLogLevel)} className="h-7 w-auto py-0 text-[12px]">
              {MCP_LOG_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
            </NativeSelect>
          </label>
        </div>
        <div className="flex items-center gap-2">
          {data?.supported && data.level && (
            <label className="flex items-center gap-1.5 text-[12px] text-muted-foreground">
              Server sends
              <NativeSelect
                data-testid="mcp-logs-server-level"
                value={setLevel.isPending && setLevel.variables ? setLevel.variables.level : data.level}
                disabled={setLevel.isPending}
                onChange={(e) => setLevel.mutate({ name, level: e.target.value as McpLogLevel })}
                className="h-7 w-auto py-0 text-[12px]"
              >
                {MCP_LOG_LEVELS.map((l) => <option key={l} value={l}>{l} and above</option>)}
              </NativeSelect>
            </label>
          )}
          {text && <CopyButton text={text} />}
        </div>
      </div>
      {setLevel.isError && <p role="alert" className="text-[12px] text-destructive">{setLevel.error.message}</p>}
      <p className="text-[12px] text-muted-foreground">
        {note ? `${note} ` : ""}The last {MCP_LOG_RING} messages are kept, and cleared when the server restarts (which also asks for info again).
      </p>
      <div
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className="scroll-thin max-h-72 overflow-auto rounded-md border bg-background p-2.5 font-mono text-[12px] leading-[1.5]"
      >
        {logs.isError ? (
          <p className="text-destructive">Could not load the logs: {logs.error.message}</p>
        ) : entries.length === 0 ? (
          <p data-testid="mcp-logs-empty" className="text-muted-foreground">
            {logs.isPending ? "Loading…" : (data?.entries.length ?? 0) > 0 ? `No messages at ${minLevel} or above.` : "No log messages yet."}
          </p>
        ) : (
          <ol data-testid="mcp-log-entries">
            {entries.map((e) => (
              <li key={e.seq} data-testid="mcp-log-entry" data-level={e.level} className={cn("whitespace-pre-wrap break-words", LEVEL_TONE[e.level])}>
                <time dateTime={e.time} title={e.time} className="text-muted-foreground">{e.time.slice(11, 23)}</time>{" "}
                <span className="uppercase">{e.level}</span> {e.logger && <span className="text-muted-foreground">[{e.logger}] </span>}
                {e.text}
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
