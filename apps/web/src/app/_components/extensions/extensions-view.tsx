"use client";
import { LoaderCircleIcon, PuzzleIcon } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { ApprovalCard } from "./approval-card";
import { ExtensionFrame } from "./extension-frame";
import { ExtensionSettings } from "./extension-settings";
import { PackagesTable } from "./packages-table";
import { RunsList } from "./runs-list";
import { hasLiveBrowserHalf, messageOf, useExtensions } from "./use-extensions";

/** The extensions page (EXT-6): approvals, packages → versions, runs, running browser halves, settings. */
export function ExtensionsView() {
  const snapshot = useExtensions();
  const [selected, setSelected] = useState<string | null>(null);
  useScrollToHash(Boolean(snapshot.data));

  if (snapshot.isPending) {
    return (
      <p className="flex items-center gap-2 text-[13px] text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin" /> Loading extensions…
      </p>
    );
  }
  if (snapshot.isError) {
    return (
      <p role="alert" data-testid="extensions-error" className="text-[13px] text-destructive">
        Could not load the extensions: {messageOf(snapshot.error)}. Check that the Seam host is running and up to date, then reload the page.
      </p>
    );
  }

  const { packages, runs, approvals, settings } = snapshot.data;
  const titles = new Map(packages.map((p) => [p.sessionId, p.sessionTitle]));
  const sessionTitle = (id: string) => titles.get(id) || "Untitled session";
  const live = runs.filter(hasLiveBrowserHalf);

  return (
    <div className="flex flex-col gap-10">
      <Section id="approvals" title="Approvals" count={approvals.length} hint="Run requests of every session wait here until someone answers; the first answer wins.">
        {approvals.length === 0 ? (
          <Empty testId="extensions-approvals-empty">Nothing is waiting for a decision.</Empty>
        ) : (
          <div className="flex flex-col gap-3">
            {approvals.map((r) => (
              <ApprovalCard key={r.id} request={r} />
            ))}
          </div>
        )}
      </Section>

      <Section id="packages" title="Packages" count={packages.length}>
        {packages.length === 0 ? (
          <div data-testid="extensions-empty" className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card px-6 py-10 text-center">
            <span className="flex size-10 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
              <PuzzleIcon className="size-5" />
            </span>
            <div>
              <p className="font-medium">No extensions yet</p>
              <p className="mx-auto mt-1 max-w-lg text-[13px] leading-relaxed text-muted-foreground">
                Extensions are small programs the agent writes during a session with the{" "}
                <code className="font-mono text-[12px]">extension_define</code> tool — a host half that can add tools, and a browser half
                that renders here in a sandboxed frame. Nothing runs until you allow it.
              </p>
            </div>
          </div>
        ) : (
          <PackagesTable packages={packages} selected={selected} onSelect={setSelected} />
        )}
      </Section>

      <Section id="runs" title="Runs" count={runs.length} hint="Current runs and the most recent ended ones.">
        {runs.length === 0 ? (
          <Empty testId="extensions-runs-empty">No runs yet. The agent starts one with extension_run once you have allowed it.</Empty>
        ) : (
          <RunsList runs={runs} sessionTitle={sessionTitle} />
        )}
      </Section>

      <Section id="running" title="Running browser halves" count={live.length} hint="Each frame is sandboxed: no network, no access to this page, only its bridge to its own host half.">
        {live.length === 0 ? (
          <Empty testId="extensions-frames-empty">No browser half is running.</Empty>
        ) : (
          <div className="flex flex-col gap-3">
            {live.map((run) => (
              <ExtensionFrame key={run.runId} run={run} showSession={{ title: sessionTitle(run.sessionId) }} />
            ))}
          </div>
        )}
      </Section>

      <Section id="settings" title="Settings">
        <ExtensionSettings settings={settings} />
      </Section>
    </div>
  );
}

function Section({ id, title, count, hint, children }: { id: string; title: string; count?: number; hint?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} data-testid={`extensions-section-${id}`} className="flex scroll-mt-6 flex-col gap-3">
      <div>
        <h2 id={`${id}-title`} className="flex items-center gap-2 text-[15px] font-semibold tracking-tight">
          {title}
          {count !== undefined && count > 0 && <span className="rounded-full bg-muted px-1.5 py-px text-[11.5px] font-medium text-muted-foreground tabular-nums">{count}</span>}
        </h2>
        {hint && <p className="mt-0.5 text-[12.5px] text-muted-foreground">{hint}</p>}
      </div>
      {children}
    </section>
  );
}

function Empty({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p data-testid={testId} className="rounded-xl border border-dashed px-4 py-5 text-center text-[13px] text-muted-foreground">
      {children}
    </p>
  );
}

/** `/extensions#approvals` lands on the section once the data is there to scroll to. */
function useScrollToHash(ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView({ block: "start" });
  }, [ready]);
}
