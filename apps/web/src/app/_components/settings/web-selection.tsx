import type { WebKindHealth } from "@seam/shared";
import { AlertTriangleIcon, CheckCircle2Icon } from "lucide-react";
import { cn } from "@/lib/utils";

const NUMBER_WORDS = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const count = (n: number) => NUMBER_WORDS[n] ?? String(n);

/**
 * What selection (WEB-3) gives right now, in words: which provider the next call uses and why, or the
 * host's error with what to do about it. Reflects the saved settings, not the unsaved draft.
 */
export function WebSelectionNote({ health }: { health: WebKindHealth }) {
  const { kind, selection, tool, envVar } = health;
  const label = (id: string) => health.providers.find((p) => p.id === id)?.label ?? id;

  if (selection.ok) {
    const why =
      health.configuredBy === "env"
        ? `set by ${envVar} in the host's environment`
        : health.configuredBy === "settings"
          ? "chosen in these settings"
          : `the only available ${kind} provider (none is chosen; if another becomes available, calls fail until you choose)`;
    return (
      <div data-testid="web-selection" data-kind={kind} data-ok="true" className="flex items-start gap-2 rounded-lg bg-success-soft/70 px-3 py-2 text-[13px]">
        <CheckCircle2Icon className="mt-0.5 size-3.5 shrink-0 text-success" />
        <span>
          <span className="font-mono">{tool}</span> uses <span className="font-medium">{label(selection.id)}</span>
          <span className="text-muted-foreground"> — {why}.</span>
        </span>
      </div>
    );
  }

  const available = health.providers.filter((p) => p.available).map((p) => p.id);
  const configured = health.configuredId ?? "";
  let headline: string;
  let todo: string;
  switch (selection.code) {
    case "ambiguous_provider":
      headline = `${count(available.length)} ${kind} providers are available (${available.join(", ")}); choose one — Seam never picks the first.`;
      todo = `Pick one under “${kind === "search" ? "Search" : "Fetch"} provider” and save, or set ${envVar} in the host's environment. Until then every ${tool} call fails.`;
      break;
    case "no_provider_available":
      headline = `No ${kind} provider is available, so ${tool} calls fail.`;
      todo =
        kind === "search"
          ? "Give one provider its key — export it (e.g. EXA_API_KEY) before starting Seam or add it to $SEAM_HOME/secrets.json — then reload this page. Each row below says what is missing."
          : "Each row below says what is missing; fix it and reload this page.";
      break;
    case "provider_unavailable":
      headline = `The chosen ${kind} provider “${configured}” cannot be used right now, so ${tool} calls fail.`;
      todo = `Fix the problem shown in its row (usually a missing key), or choose another provider${health.lockedByEnv ? ` by changing ${envVar}` : ""}.`;
      break;
    case "provider_not_found":
      headline = `The configured ${kind} provider “${configured}” does not exist in this host.`;
      todo = health.lockedByEnv
        ? `${envVar} names it: change or unset that variable and restart Seam.`
        : "Choose a registered provider (or none) and save.";
      break;
    default:
      headline = `${tool} calls fail: ${selection.message}`;
      todo = "Check the providers below and the settings of the one you want to use.";
  }
  return (
    <div
      data-testid="web-selection"
      data-kind={kind}
      data-ok="false"
      data-code={selection.code}
      role="status"
      className={cn("flex items-start gap-2 rounded-lg border px-3 py-2.5 text-[13px]", "border-warning/30 bg-warning-soft")}
    >
      <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0 text-warning" />
      <div className="flex min-w-0 flex-col gap-1">
        <span className="font-medium">{headline}</span>
        <span>{todo}</span>
        <p className="text-[12px] text-muted-foreground">
          Host: <span className="font-mono">[{selection.code}]</span> {selection.message}
        </p>
      </div>
    </div>
  );
}
