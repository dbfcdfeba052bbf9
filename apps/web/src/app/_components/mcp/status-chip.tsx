"use client";
import type { McpServerState } from "@seam/shared";
import { CheckIcon, CircleOffIcon, CircleStopIcon, KeyRoundIcon, LoaderCircleIcon, RotateCwIcon, XIcon } from "lucide-react";
import { Badge, StateBadge } from "@/components/ui/badge";
import { Tip } from "@/components/ui/tooltip";
import { useNow } from "@/lib/use-now";

/** One server's live state (MCP-5, UI-3): the retry countdown ticks in place. */
export function McpStatusChip({ status }: { status: McpServerState }) {
  const retrying = status.state === "retrying";
  const now = useNow(250, retrying);
  switch (status.state) {
    case "ready":
      return <StateBadge look={{ tone: "success", icon: CheckIcon, label: "ready" }} data-testid="mcp-status" />;
    case "connecting": {
      const label = status.phase === "discovering" ? "discovering tools…" : "connecting…";
      return <StateBadge look={{ tone: "accent", icon: LoaderCircleIcon, spin: true, label }} data-testid="mcp-status" />;
    }
    case "retrying": {
      const left = Math.max(0, Math.ceil((Date.parse(status.nextRetryAt) - now) / 1000));
      return (
        <Tip label={<span className="font-mono">{status.lastError}</span>}>
          <Badge tone="warning" data-testid="mcp-status" className="tabular-nums">
            <RotateCwIcon className={left === 0 ? "animate-spin" : undefined} /> retrying {status.attempt}/{status.maxAttempts}
            {left > 0 ? ` in ${left} s` : " now…"}
          </Badge>
        </Tip>
      );
    }
    case "failed":
      return (
        <Badge tone="danger" data-testid="mcp-status" title={status.error} className="max-w-72">
          <XIcon /> <span className="truncate">failed: {status.error}</span>
        </Badge>
      );
    case "disabled":
      return <StateBadge look={{ tone: "neutral", icon: CircleOffIcon, label: "disabled" }} data-testid="mcp-status" />;
    case "stopped":
      return <StateBadge look={{ tone: "neutral", icon: CircleStopIcon, label: "stopped" }} data-testid="mcp-status" />;
    case "needs_authorization":
      return (
        <Tip label={status.reason}>
          <Badge tone="warning" data-testid="mcp-status">
            <KeyRoundIcon /> needs authorization
          </Badge>
        </Tip>
      );
  }
}
