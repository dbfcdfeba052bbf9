import type { ExtensionVersionSummary } from "@seam/shared";
import { BanIcon, CheckIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";

const BY = { user: "by you", grant: "by grant", setting: "by setting" } as const;

/** "allowed by you" / "denied by you" / "allowed by grant" … */
export function DecisionChip({ decision }: { decision: NonNullable<ExtensionVersionSummary["decision"]> }) {
  const allowed = decision.decision === "allow";
  return (
    <Badge tone={allowed ? "success" : "danger"} data-testid="extension-decision" data-decision={decision.decision} data-by={decision.by}>
      {allowed ? <CheckIcon /> : <BanIcon />}
      {allowed ? "allowed" : "denied"} {BY[decision.by] ?? ""}
    </Badge>
  );
}
