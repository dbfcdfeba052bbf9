"use client";
import type { PatternCheck, ToolApprovalAnswer, ToolApprovalView } from "@seam/shared";
import { CheckIcon, LoaderCircleIcon, PlusIcon, ShieldQuestionIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { useId, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { ApprovalSubject, SummaryText } from "./approval-subject";

/** Which answer is being sent (for its spinner). */
export type AnswerKind = "once" | "session" | "always" | "deny";

/** The shortcut keys of a focused card. */
export const ANSWER_KEYS = { once: "a", session: "s", always: "r", deny: "d" } as const;

export interface ToolApprovalPromptProps {
  request: ToolApprovalView;
  onAnswer: (answer: ToolApprovalAnswer) => void;
  /** Checks one rule pattern (`permissions.checkPattern`) before "Always allow" saves it. */
  checkPattern: (pattern: string) => Promise<PatternCheck>;
  /** The answer on its way to the host. */
  sending: AnswerKind | null;
  /** Why the last answer failed (the card stays). */
  error: string | null;
  /** In the tray: which session asks, with a link. */
  showSession?: boolean;
  className?: string;
}

/**
 * A tool call waiting for a person (PERM-3): the one-line summary, the command / diff / arguments in
 * full, why it asks, and the answers. "Always allow…" shows the rule(s) it would save, editable, with a
 * scope; "Deny" takes an optional message for the model. The focused card answers to a, s, r and d.
 */
export function ToolApprovalPrompt({ request, onAnswer, checkPattern, sending, error, showSession, className }: ToolApprovalPromptProps) {
  const [panel, setPanel] = useState<"none" | "always" | "deny">("none");
  const denyRef = useRef<HTMLTextAreaElement>(null);
  const firstRuleRef = useRef<HTMLInputElement>(null);
  const busy = sending !== null;

  const open = (next: "always" | "deny") => {
    setPanel(next);
    // Focus moves into what just opened, after it renders.
    setTimeout(() => (next === "deny" ? denyRef.current : firstRuleRef.current)?.focus(), 0);
  };
  const once = () => onAnswer({ id: request.id, decision: "allow", scope: "once" });
  const session = () => onAnswer({ id: request.id, decision: "allow", scope: "session", ...(request.suggestedRules.length ? { rules: request.suggestedRules } : {}) });

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    if (e.key === "Escape" && panel !== "none") {
      e.preventDefault();
      setPanel("none");
      e.currentTarget.focus();
      return;
    }
    if (busy || e.metaKey || e.ctrlKey || e.altKey || target.closest("input, textarea, select, [contenteditable=true]")) return;
    const key = e.key.toLowerCase();
    if (key === ANSWER_KEYS.once) once();
    else if (key === ANSWER_KEYS.session) session();
    else if (key === ANSWER_KEYS.always) open("always");
    else if (key === ANSWER_KEYS.deny) open("deny");
    else return;
    e.preventDefault();
  };

  return (
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex, jsx-a11y/no-noninteractive-element-interactions -- the card is focusable so its shortcut keys work
    <article tabIndex={0} onKeyDown={onKeyDown}
      data-testid="tool-approval-card"
      data-request-id={request.id}
      data-call-id={request.callId}
      data-session-id={request.sessionId}
      data-tool={request.tool}
      aria-label={`Approval needed: ${request.summary}. Shortcut keys: ${ANSWER_KEYS.once} allow once, ${ANSWER_KEYS.session} allow for session, ${ANSWER_KEYS.always} always allow, ${ANSWER_KEYS.deny} deny.`}
      className={cn(
        "flex flex-col gap-2.5 rounded-xl border border-warning/40 bg-card p-3.5 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40",
        className,
      )}
    >
      <header className="flex items-start gap-2.5">
        <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-lg bg-warning-soft text-warning">
          <ShieldQuestionIcon className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <p data-testid="tool-approval-summary" className="text-[14px] font-medium leading-snug">
            <SummaryText text={request.summary} />
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-[12px] text-muted-foreground">
            <span className="font-mono">{request.tool}</span>
            <Badge tone="outline">{request.effect}</Badge>
            {showSession && (
              <>
                <span aria-hidden>·</span>
                <Link href={`/s/${request.sessionId}`} data-testid="tool-approval-session-link" className="font-medium text-primary hover:underline">
                  {request.sessionTitle || "Untitled session"}
                </Link>
              </>
            )}
          </p>
        </div>
      </header>

      <ApprovalSubject request={request} />

      <p data-testid="tool-approval-reason" className="text-[12.5px] text-muted-foreground">
        <span className="font-medium text-foreground/80">Why it asks: </span>
        {request.reason}
      </p>

      {error && (
        <p role="alert" data-testid="tool-approval-error" className="text-[12.5px] text-destructive">
          {error}
        </p>
      )}

      {panel === "always" && (
        <AlwaysAllowForm
          request={request}
          firstRef={firstRuleRef}
          checkPattern={checkPattern}
          sending={sending === "always"}
          disabled={busy}
          onCancel={() => setPanel("none")}
          onSave={(rules, ruleScope) => onAnswer({ id: request.id, decision: "allow", scope: "always", rules, ruleScope })}
        />
      )}
      {panel === "deny" && (
        <DenyForm
          textareaRef={denyRef}
          sending={sending === "deny"}
          disabled={busy}
          onCancel={() => setPanel("none")}
          onDeny={(message) => onAnswer({ id: request.id, decision: "deny", ...(message ? { message } : {}) })}
        />
      )}

      {panel === "none" && (
        <footer className="flex flex-wrap items-center gap-2 border-t pt-2.5">
          <AnswerButton testId="tool-approval-once" shortcut={ANSWER_KEYS.once} sending={sending === "once"} disabled={busy} onClick={once} primary>
            Allow once
          </AnswerButton>
          <AnswerButton testId="tool-approval-session" shortcut={ANSWER_KEYS.session} sending={sending === "session"} disabled={busy} onClick={session}>
            Allow for session
          </AnswerButton>
          <AnswerButton testId="tool-approval-always" shortcut={ANSWER_KEYS.always} sending={false} disabled={busy} onClick={() => open("always")}>
            Always allow…
          </AnswerButton>
          <span className="flex-1" />
          <AnswerButton testId="tool-approval-deny" shortcut={ANSWER_KEYS.deny} sending={false} disabled={busy} onClick={() => open("deny")}>
            Deny…
          </AnswerButton>
        </footer>
      )}
    </article>
  );
}

function AnswerButton({
  testId, shortcut, sending, disabled, onClick, primary, children,
}: { testId: string; shortcut: string; sending: boolean; disabled: boolean; onClick: () => void; primary?: boolean; children: ReactNode }) {
  return (
    <Button size="sm" variant={primary ? "default" : "outline"} data-testid={testId} aria-keyshortcuts={shortcut} disabled={disabled} onClick={onClick}>
      {sending && <LoaderCircleIcon className="animate-spin" />}
      {children}
      <kbd className={cn("ml-0.5 rounded border px-1 font-mono text-[10.5px] leading-4", primary ? "border-primary-foreground/40 text-primary-foreground/80" : "text-muted-foreground")}>
        {shortcut}
      </kbd>
    </Button>
  );
}

interface RuleDraft {
  key: number;
  pattern: string;
  error: string | null;
}

/** The rule(s) "Always allow" would save, editable, with where they apply; each is checked by the host before the answer goes. */
function AlwaysAllowForm({
  request, firstRef, checkPattern, sending, disabled, onCancel, onSave,
}: {
  request: ToolApprovalView;
  firstRef: RefObject<HTMLInputElement | null>;
  checkPattern: (pattern: string) => Promise<PatternCheck>;
  sending: boolean;
  disabled: boolean;
  onCancel: () => void;
  onSave: (rules: string[], scope: "workspace" | "global") => void;
}) {
  const scopeName = useId();
  const [rules, setRules] = useState<RuleDraft[]>(() => (request.suggestedRules.length ? request.suggestedRules : [""]).map((pattern, key) => ({ key, pattern, error: null })));
  const addRule = () => setRules((rs) => [...rs, { key: Math.max(-1, ...rs.map((r) => r.key)) + 1, pattern: "", error: null }]);
  const [scope, setScope] = useState<"workspace" | "global">("workspace");
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);

  const save = async () => {
    const patterns = rules.map((r) => r.pattern.trim());
    const empty = patterns.some((p) => !p);
    if (empty) {
      setRules((rs) => rs.map((r) => (r.pattern.trim() ? r : { ...r, error: "Enter a pattern such as bash(npm test), or remove this line." })));
      return;
    }
    setChecking(true);
    setCheckError(null);
    try {
      const results = await Promise.all(patterns.map((p) => checkPattern(p)));
      const next = rules.map((r, i) => ({ ...r, error: results[i]?.ok ? null : (results[i]?.message ?? "Not a valid pattern.") }));
      setRules(next);
      if (next.every((r) => !r.error)) onSave(patterns, scope);
    } catch (error) {
      setCheckError(`Could not check the rule: ${error instanceof Error ? error.message : "unknown error"}. Check that Seam is running and try again.`);
    } finally {
      setChecking(false);
    }
  };

  return (
    <form
      data-testid="tool-approval-always-form"
      className="flex flex-col gap-2 rounded-lg border bg-muted/40 p-2.5"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="text-[12.5px] text-muted-foreground">
        Allow this call and save {rules.length === 1 ? "this rule" : "these rules"}, so matching calls run without asking. Edit before saving if it is too broad.
      </p>
      {rules.map((r, i) => (
        <div key={r.key} className="flex flex-col gap-1">
          <div className="flex items-center gap-1.5">
            <Input
              ref={i === 0 ? firstRef : undefined}
              data-testid="tool-approval-rule-input"
              aria-label={`Rule ${i + 1}`}
              aria-invalid={r.error ? true : undefined}
              spellCheck={false}
              autoComplete="off"
              value={r.pattern}
              disabled={disabled}
              onChange={(e) => {
                const pattern = e.target.value;
                setRules((rs) => rs.map((x) => (x.key === r.key ? { ...x, pattern, error: null } : x)));
              }}
              className="h-8 font-mono text-[13px]"
            />
            {rules.length > 1 && (
              <Button variant="subtle" size="icon-xs" aria-label={`Remove rule ${i + 1}`} disabled={disabled} onClick={() => setRules((rs) => rs.filter((x) => x.key !== r.key))}>
                <XIcon />
              </Button>
            )}
          </div>
          {r.error && (
            <p role="alert" data-testid="tool-approval-rule-error" className="text-xs text-destructive">
              {r.error}
            </p>
          )}
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5 text-[12.5px]">
        <button type="button" disabled={disabled} className="inline-flex w-fit cursor-pointer items-center gap-1 text-muted-foreground hover:text-foreground" onClick={addRule}>
          <PlusIcon className="size-3.5" /> Add a rule
        </button>
        <fieldset className="flex items-center gap-3">
          <legend className="sr-only">Where the rule applies</legend>
          {(
            [
              ["workspace", "This workspace"],
              ["global", "Everywhere"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex cursor-pointer items-center gap-1.5">
              <input
                type="radio"
                name={scopeName}
                value={value}
                data-testid={`tool-approval-scope-${value}`}
                checked={scope === value}
                disabled={disabled}
                onChange={() => setScope(value)}
                className="accent-[var(--primary)]"
              />
              {label}
            </label>
          ))}
        </fieldset>
      </div>
      {scope === "workspace" && <p className="truncate font-mono text-[11.5px] text-muted-foreground" title={request.workspace}>{request.workspace}</p>}
      {checkError && (
        <p role="alert" className="text-xs text-destructive">
          {checkError}
        </p>
      )}
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" data-testid="tool-approval-always-save" disabled={disabled || checking}>
          {sending || checking ? <LoaderCircleIcon className="animate-spin" /> : <CheckIcon />}
          Save rule and allow
        </Button>
        <Button variant="ghost" size="sm" disabled={disabled} onClick={onCancel}>
          Back
        </Button>
      </div>
    </form>
  );
}

/** Deny, with an optional message the model gets back with `permission_denied`. */
function DenyForm({
  textareaRef, sending, disabled, onCancel, onDeny,
}: {
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  sending: boolean;
  disabled: boolean;
  onCancel: () => void;
  onDeny: (message: string) => void;
}) {
  const [message, setMessage] = useState("");
  const id = useId();
  const send = () => onDeny(message.trim());
  return (
    <form
      data-testid="tool-approval-deny-form"
      className="flex flex-col gap-2 rounded-lg border bg-muted/40 p-2.5"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label htmlFor={id} className="text-[12.5px] text-muted-foreground">
        Message for the model <span className="text-muted-foreground/80">(optional — say what to do instead)</span>
      </label>
      <Textarea
        ref={textareaRef}
        id={id}
        data-testid="tool-approval-deny-message"
        rows={2}
        maxLength={2_000}
        value={message}
        disabled={disabled}
        onChange={(e) => setMessage(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
        className="text-[13px]"
      />
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" variant="destructive" data-testid="tool-approval-deny-confirm" disabled={disabled}>
          {sending ? <LoaderCircleIcon className="animate-spin" /> : <XIcon />}
          Deny
        </Button>
        <Button variant="ghost" size="sm" disabled={disabled} onClick={onCancel}>
          Back
        </Button>
        <span className="text-[11.5px] text-muted-foreground">Enter denies · Esc goes back</span>
      </div>
    </form>
  );
}
