"use client";
import type { ToolCallItem } from "@seam/shared";
import { CheckIcon, CircleSlashIcon, LoaderCircleIcon, XIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { elapsedSince, formatDuration } from "@/lib/time";
import { useNow } from "@/lib/use-now";

export function ToolStatusChip({ call }: { call: ToolCallItem }) {
  const running = call.status === "running";
  const now = useNow(200, running);
  const ms = elapsedSince(call.startedAt, call.endedAt, now);
  switch (call.status) {
    case "running":
      return (
        <Badge tone="accent" data-testid="tool-card-status" className="tabular-nums">
          <LoaderCircleIcon className="animate-spin" /> {formatDuration(ms)}
        </Badge>
      );
    case "ok":
      return (
        <Badge tone="success" data-testid="tool-card-status" className="tabular-nums">
          <CheckIcon /> {formatDuration(ms)}
        </Badge>
      );
    case "error":
      return (
        <Badge tone="danger" data-testid="tool-card-status" title={call.error?.message}>
          <XIcon /> <span className="font-mono">{call.error?.code ?? "error"}</span>
        </Badge>
      );
    case "cancelled":
      return (
        <Badge tone="neutral" data-testid="tool-card-status">
          <CircleSlashIcon /> cancelled
        </Badge>
      );
  }
}
