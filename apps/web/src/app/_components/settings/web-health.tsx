"use client";
import type { WebCallOutcome, WebKindHealth, WebProbeResult, WebProviderHealth } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangleIcon, CheckIcon, KeyRoundIcon, LoaderCircleIcon, MinusIcon, RadioTowerIcon, XIcon } from "lucide-react";
import { Fragment, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { formatDuration, relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";

const FLAGS = [
  { key: "registered", label: "Registered", tip: "The host has code for this provider." },
  { key: "configured", label: "Configured", tip: "The saved settings (or the env var) name this provider." },
  { key: "available", label: "Available", tip: "The local check passes: key present, config parses. No network call." },
  { key: "selected", label: "Selected", tip: "The next call would use this provider." },
] as const satisfies readonly { key: keyof WebProviderHealth; label: string; tip: string }[];

const COLUMNS = FLAGS.length + 3;

/** One row per provider of a kind (WEB-11): the four flags, the problem, key source, endpoint, last call and a probe. */
export function WebHealthTable({ health }: { health: WebKindHealth }) {
  const now = useNow(15_000);
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table data-testid="web-health-table" data-kind={health.kind} className="w-full border-collapse text-[13px]">
        <thead>
          <tr className="border-b bg-muted/50 text-left text-[11.5px] text-muted-foreground">
            <th className="py-2 pr-2 pl-3 font-medium">Provider</th>
            {FLAGS.map((f) => (
              <th key={f.key} className="px-1 py-2 text-center font-medium">
                <FlagHeading flag={f} />
              </th>
            ))}
            <th className="px-2 py-2 font-medium">Last call</th>
            <th className="py-2 pr-3 pl-1 text-right font-medium">
              <span className="sr-only">Probe</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {health.providers.length === 0 && (
            <tr>
              <td colSpan={COLUMNS} className="px-3 py-5 text-center text-muted-foreground">
                No {health.kind} provider is registered.
              </td>
            </tr>
          )}
          {health.providers.map((p) => (
            <ProviderRow key={p.id} provider={p} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A flag's column heading, explained on hover. */
function FlagHeading({ flag }: { flag: (typeof FLAGS)[number] }) {
  return (
    <Tip label={flag.tip}>
      <span className="cursor-help">{flag.label}</span>
    </Tip>
  );
}

/** One real call to the provider; the span carries the tooltip while the button is disabled. */
function ProbeButton({ provider: p, pending, onProbe }: { provider: WebProviderHealth; pending: boolean; onProbe: () => void }) {
  return (
    <Tip label={p.registered ? (p.kind === "search" ? "One real search request" : "One real fetch of the probe URL") : "Not registered: nothing to probe"}>
      <span className="inline-flex">
        <Button variant="outline" size="xs" data-testid="web-probe" aria-label={`Probe ${p.label}`} disabled={!p.registered || pending} onClick={onProbe}>
          {pending ? <LoaderCircleIcon className="animate-spin" /> : <RadioTowerIcon />}
          {pending ? "Probing…" : "Probe"}
        </Button>
      </span>
    </Tip>
  );
}

function ProviderRow({ provider: p, now }: { provider: WebProviderHealth; now: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<WebProbeResult | null>(null);
  const probe = useMutation(
    trpc.web.probe.mutationOptions({
      onSuccess: (r) => setResult(r),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.web.health.queryKey() }),
    }),
  );
  const failed = probe.error?.message ?? null;
  return (
    <Fragment>
      <tr
        data-testid="web-provider-row"
        data-kind={p.kind}
        data-id={p.id}
        data-available={p.available}
        data-selected={p.selected}
        className={cn("border-b align-top last:border-b-0", p.selected && "bg-primary-soft/40")}
      >
        <td className="w-full max-w-0 py-2.5 pr-2 pl-3">
          <div className="flex min-w-0 items-baseline gap-1.5">
            <span className="font-medium break-words">
              {p.label}
            </span>
            {p.label !== p.id && <span className="shrink-0 font-mono text-[11.5px] text-muted-foreground">{p.id}</span>}
          </div>
          <div className="mt-1 flex flex-col gap-0.5 text-[11.5px] text-muted-foreground">
            {p.keySource ? (
              <span data-testid="web-key-source" className="inline-flex items-center gap-1">
                <KeyRoundIcon className="size-3 shrink-0" /> from {p.keySource}
              </span>
            ) : null}
            {p.endpoint && (
              <span className="truncate font-mono" title={p.endpoint}>
                {p.endpoint}
              </span>
            )}
            {p.problem && (
              <span data-testid="web-provider-problem" className="flex items-start gap-1 text-warning">
                <AlertTriangleIcon className="mt-px size-3 shrink-0" />
                <span>{p.problem}</span>
              </span>
            )}
          </div>
        </td>
        {FLAGS.map((f) => (
          <td key={f.key} className="px-1 py-2.5 text-center" data-flag={f.key} data-value={p[f.key]}>
            <Flag on={p[f.key]} label={`${f.label}: ${p[f.key] ? "yes" : "no"}`} warn={f.key === "available" || f.key === "registered"} />
          </td>
        ))}
        <td className="w-36 min-w-36 px-2 py-2.5">
          <LastCall call={p.lastCall} now={now} />
        </td>
        <td className="py-2 pr-3 pl-1 text-right">
          <ProbeButton
            provider={p}
            pending={probe.isPending}
            onProbe={() => {
              setResult(null);
              probe.mutate({ kind: p.kind, id: p.id });
            }}
          />
        </td>
      </tr>
      {(result || failed) && !probe.isPending && (
        <tr className="border-b last:border-b-0">
          <td colSpan={COLUMNS} className="px-3 pt-0 pb-2.5">
            <p
              data-testid="web-probe-result"
              data-ok={result?.ok ?? false}
              role="status"
              className={cn("flex items-start gap-1.5 rounded-md px-2 py-1.5 text-[12px]", result?.ok ? "bg-success-soft text-success" : "bg-destructive-soft text-destructive")}
            >
              {result?.ok ? <CheckIcon className="mt-px size-3.5 shrink-0" /> : <XIcon className="mt-px size-3.5 shrink-0" />}
              <span>
                Probe {result?.ok ? "succeeded" : "failed"}
                {result && !result.ok && result.code ? <span className="font-mono"> [{result.code}]</span> : null}: {result?.message ?? failed}
                {result && <span className="opacity-75"> · {formatDuration(result.latencyMs)}</span>}
              </span>
            </p>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function Flag({ on, label, warn }: { on: boolean; label: string; warn?: boolean }) {
  return on ? (
    <CheckIcon aria-label={label} className="mx-auto size-4 text-success" />
  ) : warn ? (
    <XIcon aria-label={label} className="mx-auto size-4 text-warning" />
  ) : (
    <MinusIcon aria-label={label} className="mx-auto size-4 text-muted-foreground/50" />
  );
}

function LastCall({ call, now }: { call: WebCallOutcome | null; now: number }) {
  if (!call) return <span className="text-[12px] text-muted-foreground">No call yet</span>;
  return (
    <div data-testid="web-last-call" data-ok={call.ok} className="flex flex-col items-start gap-1">
      {call.ok ? (
        <Badge tone="success" className="tabular-nums">
          <CheckIcon /> ok · {formatDuration(call.latencyMs)}
        </Badge>
      ) : (
        <Badge tone="danger" className="max-w-36 tabular-nums" title={call.message ?? undefined}>
          <XIcon /> <span className="truncate font-mono">{call.code ?? "error"}</span> · {formatDuration(call.latencyMs)}
        </Badge>
      )}
      {!call.ok && call.message && (
        <span className="line-clamp-2 text-[11.5px] text-muted-foreground" title={call.message}>
          {call.message}
        </span>
      )}
      <span className="text-[11px] text-muted-foreground" title={new Date(call.at).toLocaleString()}>
        {call.probe ? "probe · " : ""}
        {relativeTime(call.at, now)}
      </span>
    </div>
  );
}
