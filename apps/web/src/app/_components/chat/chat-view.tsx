"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDownIcon, LoaderCircleIcon } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { useSessions } from "../sessions/use-sessions";
import { ToolApprovalCard } from "../approvals/tool-approval-card";
import { useToolApprovalsOf } from "../approvals/use-approvals";
import { SessionApprovals, SessionFrames } from "../extensions/session-extensions";
import { ToolPalette } from "../tools/tool-palette";
import { checkpointIndex } from "../checkpoints/checkpoint-facts";
import { JobChips } from "../jobs/job-chips";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { EmptyState } from "./empty-state";
import { ModeBanner } from "./mode-banner";
import { Timeline } from "./timeline";
import { buildRows, runningTurn } from "./timeline-state";
import { useSessionTimeline } from "./use-session-timeline";
import { useStickToBottom } from "./use-stick-to-bottom";

export function ChatView({ id }: { id: string }) {
  const trpc = useTRPC();
  const { state, error, live } = useSessionTimeline(id);
  const model = useQuery(trpc.settings.model.queryOptions());
  const tools = useQuery(trpc.tools.list.queryOptions({ sessionId: id }));
  // The meter's reading: fetched once, then replaced by the live `context` events after every step and turn end
  // (a model settings change refetches it, e.g. for a new window).
  const queryClient = useQueryClient();
  const contextQuery = useQuery(trpc.session.context.queryOptions({ id }));
  useEffect(() => {
    if (state.context) queryClient.setQueryData(trpc.session.context.queryKey({ id }), state.context);
  }, [state.context, queryClient, trpc, id]);
  const sessions = useSessions();
  const stop = useMutation(trpc.session.stop.mutationOptions());
  const [palette, setPalette] = useState<{ open: boolean; tool: string | null }>({ open: false, tool: null });

  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  // The list is pushed live and updated on rename; the timeline's copy comes with session events.
  const session = useMemo(() => {
    const fromList = sessions.data?.find((s) => s.id === id);
    const fromTimeline = state.session;
    if (!fromList) return fromTimeline;
    if (!fromTimeline) return fromList;
    return fromTimeline.updatedAt > fromList.updatedAt ? fromTimeline : fromList;
  }, [sessions.data, state.session, id]);

  const rows = useMemo(() => buildRows(state), [state]);
  const checkpoints = useMemo(() => checkpointIndex(Object.values(state.items)), [state.items]);
  const approvals = useToolApprovalsOf(id);
  // Requests whose call is not (yet) in the timeline show at its end, so none is ever hidden.
  const strayApprovals = useMemo(() => {
    const calls = new Set(rows.flatMap((r) => (r.kind === "item" && r.item.kind === "tool_call" && r.item.status === "running" ? [r.item.callId] : [])));
    return [...approvals.values()].filter((a) => !calls.has(a.callId));
  }, [rows, approvals]);
  const title = session?.title;
  useEffect(() => {
    if (title) document.title = `${title} · Seam`;
  }, [title]);
  const { atBottom, scrollToBottom } = useStickToBottom(scrollRef, contentRef, Boolean(session && state.loaded));
  const turn = runningTurn(state);
  // From this session's own turn events only: the pushed list can lag behind them.
  const running = Boolean(turn);
  const doStop = useCallback(() => stop.mutate({ id }), [stop, id]);
  const openPalette = useCallback((tool: string | null = null) => setPalette({ open: true, tool }), []);

  if (error?.notFound) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
        <h1 className="text-lg font-semibold">Session not found</h1>
        <p className="max-w-sm text-[14px] text-muted-foreground">It may have been deleted in another window.</p>
        <Button asChild variant="outline">
          <Link href="/">Back to start</Link>
        </Button>
      </div>
    );
  }

  if (!session || !state.loaded) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-[13px] text-muted-foreground">
        {error ? (
          <span className="text-destructive">Could not load this session: {error.message}</span>
        ) : (
          <>
            <LoaderCircleIcon className="size-4 animate-spin" /> Loading session…
          </>
        )}
      </div>
    );
  }

  const toolList = tools.data ?? [];
  const direct = model.data?.mode === "direct";

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ChatHeader session={session} model={model.data} context={contextQuery.data ?? state.context} running={running} stopping={stop.isPending} onStop={doStop} />
      <JobChips sessionId={id} />
      <div className="relative min-h-0 flex-1">
        <div ref={scrollRef} className="scroll-thin absolute inset-0 overflow-y-auto">
          <div ref={contentRef} className="mx-auto w-full max-w-3xl px-5 pb-6 pt-5">
            {rows.length === 0 ? (
              <EmptyState
                workspace={session.workspace}
                tools={toolList}
                toolsLoading={tools.isPending}
                model={model.data}
                onPickTool={(name) => openPalette(name)}
              />
            ) : (
              <Timeline rows={rows} sessionId={id} running={turn} approvals={approvals} outputs={state.outputs} checkpoints={checkpoints} />
            )}
            {strayApprovals.length > 0 && (
              <div data-testid="session-tool-approvals" className="mt-3.5 flex flex-col gap-3">
                {strayApprovals.map((a) => (
                  <ToolApprovalCard key={a.id} request={a} />
                ))}
              </div>
            )}
            <SessionApprovals sessionId={id} />
          </div>
        </div>
        {!atBottom && (
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Scroll to latest"
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
            onClick={() => scrollToBottom()}
          >
            <ArrowDownIcon />
          </Button>
        )}
      </div>
      <div className="shrink-0 px-5 pb-4">
        <div className="mx-auto flex w-full max-w-3xl flex-col gap-2">
          {live === "connecting" && state.loaded && (
            <p className="text-center text-[12px] text-muted-foreground">Reconnecting to live updates…</p>
          )}
          <SessionFrames sessionId={id} />
          {direct && <ModeBanner onOpenTools={() => openPalette()} />}
          {stop.error && <p className="text-[13px] text-destructive">Could not stop the turn: {stop.error.message}</p>}
          <Composer
            sessionId={id}
            running={running}
            tools={toolList}
            onStop={doStop}
            onSent={() => scrollToBottom(false)}
            onOpenTools={() => openPalette()}
          />
        </div>
      </div>
      <ToolPalette
        sessionId={id}
        tools={toolList}
        open={palette.open}
        initialTool={palette.tool}
        onOpenChange={(open) => setPalette((p) => ({ ...p, open }))}
      />
    </div>
  );
}
