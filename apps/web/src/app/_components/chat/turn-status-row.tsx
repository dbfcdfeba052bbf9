import type { TurnInfo } from "@seam/shared";
import { AlertTriangleIcon, OctagonXIcon, SquareIcon } from "lucide-react";
import { cn } from "@/lib/utils";

const COPY = {
  stopped: { label: "Turn stopped", icon: SquareIcon, tone: "text-muted-foreground bg-muted" },
  failed: { label: "Turn failed", icon: OctagonXIcon, tone: "text-destructive bg-destructive-soft" },
  interrupted: { label: "Turn interrupted", icon: AlertTriangleIcon, tone: "text-warning bg-warning-soft" },
} as const;

/** Marks where a turn ended abnormally, with the reason. */
export function TurnStatusRow({ turn }: { turn: TurnInfo }) {
  const c = COPY[turn.status as keyof typeof COPY];
  if (!c) return null;
  const Icon = c.icon;
  return (
    <div
      data-testid="turn-status"
      data-status={turn.status}
      role="status"
      className={cn("flex items-start gap-2 rounded-lg px-3 py-2 text-[13px]", c.tone)}
    >
      <Icon className="mt-0.5 size-3.5 shrink-0" />
      <div className="min-w-0">
        <span className="font-medium">{c.label}</span>
        {turn.reason && <span className="opacity-90"> — {turn.reason}</span>}
        {turn.status === "interrupted" && !turn.reason && <span className="opacity-90"> — the host restarted while it ran</span>}
      </div>
    </div>
  );
}
