"use client";
import type { RuleAction, RuleScope } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { useId, useMemo, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, Input, Label, NativeSelect } from "@/components/ui/input";
import { hostIssuesOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { useSessions } from "../sessions/use-sessions";
import { PatternFeedback } from "./pattern-feedback";
import { ACTIONS } from "./rule-chips";
import { usePatternCheck } from "./use-pattern-check";

interface Draft {
  scope: RuleScope;
  workspace: string;
  sessionId: string;
  action: RuleAction;
  pattern: string;
}

const EMPTY: Draft = { scope: "workspace", workspace: "", sessionId: "", action: "allow", pattern: "" };

/** Why a draft cannot be sent yet, field by field (the host checks the pattern's grammar). */
export function ruleDraftErrors(d: Draft): Partial<Record<keyof Draft, string>> {
  const errors: Partial<Record<keyof Draft, string>> = {};
  if (!d.pattern.trim()) errors.pattern = "Enter a pattern such as bash(npm test) or edit_file(src/**)";
  if (d.scope === "workspace" && !d.workspace.trim().startsWith("/") && !/^[A-Za-z]:[\\/]/.test(d.workspace.trim())) errors.workspace = "Enter the workspace's absolute folder";
  if (d.scope === "session" && !d.sessionId) errors.sessionId = "Choose the session";
  return errors;
}

/** Adds a rule: scope and its owner (a workspace folder or a session), action, and a pattern checked live. */
export function RuleForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const ids = { scope: useId(), owner: useId(), action: useId(), pattern: useId(), folders: useId() };
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [tried, setTried] = useState(false);
  const { check, current, checking, error: checkError } = usePatternCheck(draft.pattern);
  const create = useMutation(
    trpc.permissions.createRule.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.permissions.rules.queryKey() });
        setDraft((d) => ({ ...d, pattern: "" }));
        setTried(false);
      },
    }),
  );
  const list = useMemo(() => [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)), [sessions.data]);
  const folders = useMemo(() => [...new Set(list.map((s) => s.workspace))], [list]);
  const workspace = draft.workspace || (draft.scope === "workspace" ? (folders[0] ?? "") : "");
  const sessionId = draft.sessionId || (draft.scope === "session" ? (list[0]?.id ?? "") : "");
  const effective = { ...draft, workspace, sessionId };
  const errors = tried ? ruleDraftErrors(effective) : {};
  const patternBad = current && check !== undefined && !check.ok;

  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    if (create.error) create.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(ruleDraftErrors(effective)).length > 0 || patternBad) return;
    const owner = effective.scope === "workspace" ? effective.workspace.trim() : effective.scope === "session" ? effective.sessionId : undefined;
    create.mutate({ scope: effective.scope, action: effective.action, pattern: effective.pattern.trim(), ...(owner ? { owner } : {}) });
  };
  const hostError = create.error ? (hostIssuesOf(create.error)[0]?.message ?? create.error.message) : null;

  return (
    <form data-testid="rule-form" onSubmit={submit} className="flex flex-col gap-3 rounded-xl border bg-muted/30 p-4" aria-label="Add a rule">
      <div className="grid gap-3 sm:grid-cols-[10.5rem_1fr_7rem]">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.scope}>Applies to</Label>
          <NativeSelect id={ids.scope} data-testid="rule-form-scope" value={draft.scope} onChange={(e) => set({ scope: e.target.value as RuleScope })} className="h-8 text-[13px]">
            <option value="workspace">A workspace</option>
            <option value="session">A session</option>
            <option value="global">Everywhere</option>
          </NativeSelect>
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          {draft.scope === "workspace" && (
            <>
              <Label htmlFor={ids.owner}>Workspace folder</Label>
              <Input
                id={ids.owner}
                data-testid="rule-form-workspace"
                list={ids.folders}
                value={workspace}
                placeholder="/home/me/project"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={errors.workspace ? true : undefined}
                onChange={(e) => set({ workspace: e.target.value })}
                className="h-8 font-mono text-[13px]"
              />
              <datalist id={ids.folders}>
                {folders.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </datalist>
              {errors.workspace && <FieldError>{errors.workspace}</FieldError>}
            </>
          )}
          {draft.scope === "session" && (
            <>
              <Label htmlFor={ids.owner}>Session</Label>
              <NativeSelect id={ids.owner} data-testid="rule-form-session" value={sessionId} onChange={(e) => set({ sessionId: e.target.value })} className="h-8 text-[13px]">
                {list.length === 0 && <option value="">No sessions yet</option>}
                {list.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </NativeSelect>
              {errors.sessionId && <FieldError>{errors.sessionId}</FieldError>}
            </>
          )}
          {draft.scope === "global" && <p className="pt-6 text-[12.5px] text-muted-foreground">Every session in every workspace.</p>}
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.action}>Action</Label>
          <NativeSelect id={ids.action} data-testid="rule-form-action" value={draft.action} onChange={(e) => set({ action: e.target.value as RuleAction })} className="h-8 text-[13px]">
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.pattern}>Pattern</Label>
        <div className="flex gap-2">
          <Input
            id={ids.pattern}
            data-testid="rule-form-pattern"
            value={draft.pattern}
            placeholder="bash(npm test)"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={errors.pattern || patternBad ? true : undefined}
            onChange={(e) => set({ pattern: e.target.value })}
            className="h-8 font-mono text-[13px]"
          />
          <Button type="submit" size="sm" data-testid="rule-form-submit" disabled={create.isPending}>
            <PlusIcon /> {create.isPending ? "Adding…" : "Add rule"}
          </Button>
        </div>
        {errors.pattern ? <FieldError>{errors.pattern}</FieldError> : <PatternFeedback check={check} checking={checking} error={checkError} />}
        {hostError && (
          <FieldError data-testid="rule-form-error" className="text-[13px]">
            Not added: {hostError}
          </FieldError>
        )}
      </div>
    </form>
  );
}
