"use client";
import { KeyRoundIcon, PlugZapIcon, RefreshCwIcon, ShieldAlertIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { Connection } from "@/trpc/connection";

type Down = Extract<Connection, { message: string }>;

const copy: Record<Down["state"], { title: string; body: string; icon: typeof KeyRoundIcon }> = {
  unauthorized: {
    title: "Not connected to the host",
    body: "This browser has no valid host token. Open the URL that `npm start` printed in your terminal — it looks like http://127.0.0.1:3000/?token=… — and Seam will remember the token in a cookie.",
    icon: KeyRoundIcon,
  },
  unreachable: {
    title: "The Seam host is not reachable",
    body: "The web app is running, but the host process behind it is not answering. Start it with `npm start` in the Seam folder; this page reconnects on its own.",
    icon: PlugZapIcon,
  },
  refused: {
    title: "The host refused this page",
    body: "The host only accepts requests from the address it printed at start-up. Open Seam through that URL (127.0.0.1 or localhost and the printed port).",
    icon: ShieldAlertIcon,
  },
};

export function NotConnected({ connection, retrying, onRetry }: { connection: Down; retrying: boolean; onRetry: () => void }) {
  const c = copy[connection.state];
  const Icon = c.icon;
  return (
    <div className="flex min-h-dvh items-center justify-center bg-sidebar p-6">
      <div
        data-testid="not-connected"
        data-reason={connection.state}
        className="w-full max-w-md rounded-2xl border bg-card p-7 shadow-sm"
      >
        <div className="mb-4 flex size-10 items-center justify-center rounded-xl bg-muted text-muted-foreground">
          <Icon className="size-5" />
        </div>
        <h1 className="text-lg font-semibold">{c.title}</h1>
        <p className="mt-2 text-[14px] leading-relaxed text-muted-foreground">{renderTicks(c.body)}</p>
        {connection.state === "unauthorized" && (
          <pre className="mt-4 overflow-x-auto rounded-lg bg-muted px-3 py-2 font-mono text-[12.5px]">
            $ npm start{"\n"}[host] Open Seam: http://127.0.0.1:3000/?token=…
          </pre>
        )}
        <details className="mt-4 text-xs text-muted-foreground">
          <summary className="cursor-pointer select-none">Technical detail</summary>
          <p className="mt-2 font-mono">
            HTTP {connection.status || "–"}: {connection.message}
          </p>
        </details>
        <div className="mt-5 flex items-center gap-3">
          <Button variant="outline" onClick={onRetry} disabled={retrying}>
            <RefreshCwIcon className={retrying ? "animate-spin" : undefined} />
            Try again
          </Button>
          {connection.state === "unreachable" && <span className="text-xs text-muted-foreground">Checking every few seconds…</span>}
        </div>
      </div>
    </div>
  );
}

function renderTicks(text: string) {
  return text.split(/(`[^`]+`)/).map((part, i) =>
    part.startsWith("`") ? (
      <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[12.5px] text-foreground">
        {part.slice(1, -1)}
      </code>
    ) : (
      part
    ),
  );
}
