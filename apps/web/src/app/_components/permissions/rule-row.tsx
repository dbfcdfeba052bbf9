"use client";
import type { PermissionRuleView, RuleAction } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PencilIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DataRow, type Column } from "@/components/ui/data-table";
import { Input, NativeSelect } from "@/components/ui/input";
import { RemoveButton } from "@/components/ui/remove-button";
import { Tip } from "@/components/ui/tooltip";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/react";
import { PatternFeedback } from "./pattern-feedback";
import { ACTIONS, ActionChip } from "./rule-chips";
import { usePatternCheck } from "./use-pattern-check";

export const RULE_COLUMNS: Column[] = [
  { header: "Action", className: "w-24" },
  { header: "Pattern" },
  { header: "Changed", className: "w-28" },
  { header: <span className="sr-only">Actions</span>, className: "w-24" },
];

/** One rule: its action chip and pattern; edit in place (action, pattern) or remove. */
export function RuleRow({ rule }: { rule: PermissionRuleView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.permissions.rules.queryKey() });
  const remove = useMutation(trpc.permissions.removeRule.mutationOptions({ onSuccess: refresh }));
  if (editing) return <RuleEditRow rule={rule} onDone={() => setEditing(false)} />;
  return (
    <DataRow data-testid="rule-row" data-rule-id={rule.id} data-pattern={rule.pattern} data-action={rule.action}>
      <td className="px-3 py-2">
        <ActionChip action={rule.action} />
      </td>
      <td className="px-3 py-2">
        <span data-testid="rule-pattern" className="break-all font-mono">
          {rule.pattern}
        </span>
        {remove.error && <p className="text-xs text-destructive">Could not remove it: {remove.error.message}</p>}
      </td>
      <td className="px-3 py-2 text-muted-foreground" title={rule.updatedAt}>
        {relativeTime(rule.updatedAt, now)}
      </td>
      <td className="px-3 py-1">
        <div className="flex justify-end gap-0.5">
          <Tip label="Edit">
            <Button variant="subtle" size="icon-sm" data-testid="rule-edit" aria-label={`Edit ${rule.pattern}`} onClick={() => setEditing(true)}>
              <PencilIcon />
            </Button>
          </Tip>
          <RemoveButton
            name={rule.pattern}
            title={`the rule ${rule.pattern}`}
            description="Calls it matched are decided by the other rules and the mode again."
            testId="rule-remove"
            disabled={remove.isPending}
            onRemove={() => remove.mutate({ id: rule.id })}
          />
        </div>
      </td>
    </DataRow>
  );
}

function RuleEditRow({ rule, onDone }: { rule: PermissionRuleView; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<RuleAction>(rule.action);
  const [pattern, setPattern] = useState(rule.pattern);
  const { check, current, checking, error } = usePatternCheck(pattern);
  const update = useMutation(
    trpc.permissions.updateRule.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.permissions.rules.queryKey() });
        onDone();
      },
    }),
  );
  const invalid = (current && check && !check.ok) || !pattern.trim();
  return (
    <DataRow data-testid="rule-row-editing" data-rule-id={rule.id} open>
      <td className="px-3 py-2">
        <NativeSelect aria-label="Action" data-testid="rule-edit-action" value={action} onChange={(e) => setAction(e.target.value as RuleAction)} className="h-8 text-[13px]">
          {ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </NativeSelect>
      </td>
      <td className="px-3 py-2" colSpan={2}>
        <form
          id={`rule-edit-${rule.id}`}
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid) update.mutate({ id: rule.id, action, pattern: pattern.trim() });
          }}
          className="flex flex-col gap-1.5"
        >
          <Input
            aria-label="Pattern"
            data-testid="rule-edit-pattern"
            value={pattern}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={invalid ? true : undefined}
            onChange={(e) => setPattern(e.target.value)}
            className="h-8 font-mono text-[13px]"
          />
          <PatternFeedback check={check} checking={checking} error={error} showMatches={false} />
          {update.error && <p role="alert" className="text-xs text-destructive">Not saved: {update.error.message}</p>}
        </form>
      </td>
      {/* oxlint-disable-next-line jsx-a11y/control-has-associated-label -- the cell holds the labelled Save and Cancel buttons */}
      <td className="px-3 py-2">
        <div className="flex flex-col items-end gap-1">
          <Button type="submit" form={`rule-edit-${rule.id}`} size="xs" data-testid="rule-edit-save" disabled={update.isPending || invalid}>
            {update.isPending ? "Saving…" : "Save"}
          </Button>
          <Button variant="ghost" size="xs" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </td>
    </DataRow>
  );
}
