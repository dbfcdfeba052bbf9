"use client";
import type { ToolCallItem } from "@seam/shared";
import { CheckIcon, CircleSlashIcon, LoaderCircleIcon, ShieldQuestionIcon, XIcon } from "lucide-react";
import { Badge, StateBadge } from "@/components/ui/badge";
import { elapsedSince, formatDuration } from "@/lib/time";
import { useNow } from "@/lib/use-now";

/** The call's state: running with elapsed time, waiting for approval, ok with duration, error with its code. */
export function ToolStatusChip({ call, waiting = false, waitingFor = "approval" }: { call: ToolCallItem; waiting?: boolean; waitingFor?: "approval" | "input" }) {
  const running = call.status === "running";
  const now = useNow(200, running && !waiting);
  const ms = elapsedSince(call.startedAt, call.endedAt, now);
  if (running && waiting) {
    return <StateBadge look={{ tone: "warning", icon: ShieldQuestionIcon, label: `waiting for ${waitingFor}` }} data-testid="tool-card-status" data-waiting="true" />;
  }
  switch (call.status) {
    case "running":
      return <StateBadge look={{ tone: "accent", icon: LoaderCircleIcon, spin: true, label: formatDuration(ms) }} data-testid="tool-card-status" className="tabular-nums" />;
    case "ok":
      return <StateBadge look={{ tone: "success", icon: CheckIcon, label: formatDuration(ms) }} data-testid="tool-card-status" className="tabular-nums" />;
    case "error":
      return (
        <Badge tone="danger" data-testid="tool-card-status" title={call.error?.message}>
          <XIcon /> <span className="font-mono">{call.error?.code ?? "error"}</span>
        </Badge>
      );
    case "cancelled":
      return <StateBadge look={{ tone: "neutral", icon: CircleSlashIcon, label: "cancelled" }} data-testid="tool-card-status" />;
  }
}
