"use client";
import type { ExtensionRunView } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { LoaderCircleIcon, RotateCwIcon, SquareIcon, TriangleAlertIcon } from "lucide-react";
import Link from "next/link";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { useTRPC } from "@/trpc/react";
import { buildFrameDocument } from "./frame-document";
import { RunStateChip } from "./run-state-chip";
import { isActiveRun, messageOf } from "./use-extensions";
import { useFrameBridge } from "./use-frame-bridge";

/**
 * A running extension's browser half in a sandboxed iframe (EXT-4): opaque origin, no network, talks
 * to its host half only through the page's bridge. Only the srcdoc document the page wrote gets that
 * bridge; a frame that navigates is removed (see `frame-gate.ts`). `showSession` adds a link to the
 * session that ran it.
 */
export function ExtensionFrame({ run, showSession }: { run: ExtensionRunView; showSession?: { title: string } }) {
  const trpc = useTRPC();
  const source = useQuery({
    ...trpc.extensions.source.queryOptions({ packageId: run.packageId, version: run.version }),
    // A version is immutable.
    staleTime: Number.POSITIVE_INFINITY,
  });
  const code = source.data?.browserCode ?? null;
  // Host messages arrive through the tab's one bridge stream; a browser-only run has nobody to hear from.
  const bridge = useFrameBridge(run.runId, run.hasHost && isActiveRun(run) && code !== null);
  // A new nonce (on reload) is a new srcdoc and, through the key, a new frame element.
  const srcDoc = useMemo(() => (code === null ? null : buildFrameDocument(code, bridge.nonce)), [code, bridge.nonce]);
  const stop = useMutation(trpc.extensions.stop.mutationOptions());
  const failure = bridge.failures[bridge.failures.length - 1] ?? null;

  return (
    <section
      data-testid="extension-frame"
      data-run-id={run.runId}
      data-package={run.packageName}
      data-version={run.version}
      data-ready={bridge.ready ? "true" : "false"}
      data-failed={failure ? "true" : "false"}
      aria-label={`Extension ${run.packageName} v${run.version}`}
      className="overflow-hidden rounded-xl border bg-card"
    >
      <header className="flex items-center gap-2 border-b px-3 py-1.5">
        <span className="font-mono text-[12.5px] font-medium">
          {run.packageName} <span className="text-muted-foreground">v{run.version}</span>
        </span>
        <RunStateChip state={run.state} />
        {showSession && (
          <Link href={`/s/${run.sessionId}`} className="min-w-0 truncate text-[12px] text-muted-foreground hover:text-foreground hover:underline">
            {showSession.title || "Untitled session"}
          </Link>
        )}
        <span className="flex-1" />
        <Tip label="Reload the frame (its state is lost)">
          <Button variant="subtle" size="icon-xs" aria-label="Reload frame" data-testid="extension-frame-reload" onClick={bridge.reload}>
            <RotateCwIcon />
          </Button>
        </Tip>
        <Button
          variant="outline"
          size="xs"
          data-testid="extension-frame-stop"
          disabled={stop.isPending || !isActiveRun(run)}
          onClick={() => stop.mutate({ runId: run.runId })}
        >
          {stop.isPending ? <LoaderCircleIcon className="animate-spin" /> : <SquareIcon className="fill-current" />}
          Stop
        </Button>
      </header>
      {stop.error && (
        <p role="alert" className="border-b px-3 py-1.5 text-[12.5px] text-destructive">
          Could not stop the extension: {messageOf(stop.error)}. It may already have ended; the extensions page shows its state.
        </p>
      )}
      {failure && (
        <div role="alert" data-testid="extension-frame-error" className="flex items-start gap-2 border-b bg-destructive-soft/60 px-3 py-2 text-[12.5px]">
          <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
          <div className="min-w-0">
            <p className="font-medium text-destructive">The browser half failed while rendering.</p>
            <p className="break-words font-mono text-[12px]">{failure}</p>
            <p className="text-muted-foreground">The failure was reported to the model (extension_inspect shows it). Ask it to fix the code, or reload the frame.</p>
          </div>
        </div>
      )}
      {source.isError ? (
        <p role="alert" className="px-3 py-3 text-[12.5px] text-destructive">
          Could not load the browser half&apos;s source: {messageOf(source.error)}. Reload the page; if it persists, run the extension again.
        </p>
      ) : run.state === "starting" && srcDoc !== null ? (
        // The browser half may call its host half as soon as it runs, so it waits until that half is up.
        <p className="flex items-center gap-2 px-3 py-3 text-[12.5px] text-muted-foreground">
          <LoaderCircleIcon className="size-3.5 animate-spin" /> Starting the host half…
        </p>
      ) : srcDoc === null ? (
        <p className="flex items-center gap-2 px-3 py-3 text-[12.5px] text-muted-foreground">
          {source.isPending ? (
            <>
              <LoaderCircleIcon className="size-3.5 animate-spin" /> Loading the browser half…
            </>
          ) : (
            "This version has no browser half."
          )}
        </p>
      ) : bridge.removed ? null : (
        <iframe
          key={bridge.nonce}
          data-testid="extension-iframe"
          title={`Extension ${run.packageName} v${run.version}`}
          // Scripts only: never same-origin, popups, top navigation, forms, modals or downloads. (A frame can
          // always navigate itself; the bridge hook removes it when it does.)
          sandbox="allow-scripts"
          srcDoc={srcDoc}
          referrerPolicy="no-referrer"
          onLoad={(e) => bridge.connect(e.currentTarget)}
          style={{ height: bridge.height }}
          className="block w-full border-0 bg-card"
        />
      )}
    </section>
  );
}
