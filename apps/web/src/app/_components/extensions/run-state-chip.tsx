"use client";
import type { ExtensionBrowserState, ExtensionRunState } from "@seam/shared";
import { BanIcon, CheckIcon, CircleSlashIcon, CircleStopIcon, GaugeIcon, HourglassIcon, LoaderCircleIcon, MonitorIcon, XIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

const RUN: Record<ExtensionRunState, { tone: "accent" | "success" | "neutral" | "danger" | "warning"; label: string; icon: typeof CheckIcon; spin?: boolean }> = {
  waiting_approval: { tone: "warning", label: "waiting for approval", icon: HourglassIcon },
  starting: { tone: "accent", label: "starting…", icon: LoaderCircleIcon, spin: true },
  running: { tone: "success", label: "running", icon: CheckIcon },
  stopped: { tone: "neutral", label: "stopped", icon: CircleStopIcon },
  crashed: { tone: "danger", label: "crashed", icon: XIcon },
  limit_exceeded: { tone: "danger", label: "limit exceeded", icon: GaugeIcon },
  rejected: { tone: "neutral", label: "denied", icon: BanIcon },
  cancelled: { tone: "neutral", label: "cancelled", icon: CircleSlashIcon },
};

export function RunStateChip({ state }: { state: ExtensionRunState }) {
  const { tone, label, icon: Icon, spin } = RUN[state] ?? { tone: "neutral", label: state, icon: CircleStopIcon };
  return (
    <Badge tone={tone} data-testid="extension-run-state" data-state={state}>
      <Icon className={spin ? "animate-spin" : undefined} /> {label}
    </Badge>
  );
}

const BROWSER: Record<ExtensionBrowserState, { tone: "neutral" | "accent" | "success" | "danger"; label: string }> = {
  none: { tone: "neutral", label: "no browser half" },
  pending: { tone: "accent", label: "browser: not rendered yet" },
  rendered: { tone: "success", label: "browser: rendered" },
  failed: { tone: "danger", label: "browser: failed" },
};

export function BrowserStateChip({ state, failure, ended }: { state: ExtensionBrowserState; failure?: string | null; ended?: boolean }) {
  const { tone, label } = ended && state === "pending" ? { tone: "neutral" as const, label: "browser: never rendered" } : (BROWSER[state] ?? { tone: "neutral", label: state });
  return (
    <Badge tone={tone} data-testid="extension-browser-state" data-state={state} title={failure ?? undefined}>
      <MonitorIcon /> {label}
    </Badge>
  );
}
