import type { RuleAction } from "@seam/shared";
import { Badge } from "@/components/ui/badge";

const TONE = { allow: "success", ask: "warning", deny: "danger" } as const;

/** allow / ask / deny as a coloured chip. */
export function ActionChip({ action }: { action: RuleAction }) {
  return (
    <Badge tone={TONE[action]} data-testid="rule-action" data-action={action}>
      {action}
    </Badge>
  );
}

export const ACTIONS: readonly RuleAction[] = ["allow", "ask", "deny"];
