"use client";
import type { McpServerConfig } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { ChevronRightIcon, CheckIcon, LoaderCircleIcon } from "lucide-react";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label, Textarea } from "@/components/ui/input";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { hostCodeOf } from "@/lib/host-error";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { draftFrom, emptyDraft, parseDraft, type DraftErrors, type ServerDraft } from "./form-state";
import { KvRows } from "./kv-rows";
import { Sheet } from "./sheet";
import { useInvalidateMcp } from "./use-mcp";

/** Add (no `editing`) or edit a server in a side sheet. Closes only once the host confirmed the save. */
export function ServerFormSheet({
  open,
  onOpenChange,
  editing,
  taken,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editing: McpServerConfig | null;
  taken: string[];
}) {
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? `Edit ${editing.name}` : "Add MCP server"}
      description={
        editing
          ? "Saving restarts the server with the new settings. If it cannot start, the previous settings stay."
          : "Seam connects, lists the server's tools, and only then saves it."
      }
    >
      {open && <ServerForm key={editing?.name ?? "new"} editing={editing} taken={taken.filter((n) => n !== editing?.name)} onDone={() => onOpenChange(false)} />}
    </Sheet>
  );
}

function ServerForm({ editing, taken, onDone }: { editing: McpServerConfig | null; taken: string[]; onDone: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateMcp();
  const id = useId();
  const [draft, setDraft] = useState<ServerDraft>(() => (editing ? draftFrom(editing) : emptyDraft()));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [showErrors, setShowErrors] = useState(false);
  const [advanced, setAdvanced] = useState(false);

  const onSuccess = () => {
    invalidate();
    onDone();
  };
  const add = useMutation(trpc.mcp.add.mutationOptions({ onSuccess }));
  const update = useMutation(trpc.mcp.update.mutationOptions({ onSuccess }));
  const save = editing ? update : add;

  const change = (patch: Partial<ServerDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (save.error) save.reset();
    if (showErrors) {
      const r = parseDraft(next, taken);
      setErrors(r.ok ? {} : r.errors);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = parseDraft(draft, taken);
    setShowErrors(true);
    if (!r.ok) {
      setErrors(r.errors);
      if (r.errors.startupTimeout || r.errors.callTimeout) setAdvanced(true);
      return;
    }
    setErrors({});
    if (editing) update.mutate({ name: editing.name, config: r.value });
    else add.mutate(r.value);
  };

  const err = (field: string) => (showErrors ? errors[field] : undefined);
  const hostCode = hostCodeOf(save.error);
  const nameError = err("name") ?? (hostCode === "conflict:mcp" ? save.error?.message : undefined);
  const count = showErrors ? Object.keys(errors).length : 0;
  const formError = save.error
    ? `Not saved — ${save.error.message}`
    : count > 0
      ? `Not saved — fix the ${count === 1 ? "field" : `${count} fields`} marked above.`
      : null;

  return (
    <form onSubmit={submit} noValidate data-testid="mcp-form" className="flex min-h-0 flex-1 flex-col">
      <div className="scroll-thin flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto px-5 py-5">
        <Field id={`${id}-name`} label="Name" error={nameError} hint="Tools appear as mcp__<name>__<tool>. Letters, digits, '-' and '_'.">
          <Input
            id={`${id}-name`}
            data-testid="mcp-name"
            className="max-w-xs font-mono text-[13px]"
            placeholder="everything"
            value={draft.name}
            onChange={(e) => change({ name: e.target.value })}
            aria-invalid={nameError ? true : undefined}
            autoFocus={!editing}
            spellCheck={false}
            autoComplete="off"
          />
        </Field>

        <div className="flex flex-col gap-1.5">
          <span className="text-[13px] font-medium">Transport</span>
          <Tabs value={draft.transport} onValueChange={(v) => change({ transport: v as ServerDraft["transport"] })}>
            <TabsList>
              <TabsTrigger value="stdio" data-testid="mcp-transport-stdio">
                stdio
              </TabsTrigger>
              <TabsTrigger value="http" data-testid="mcp-transport-http">
                Streamable HTTP
              </TabsTrigger>
            </TabsList>
          </Tabs>
        </div>

        {draft.transport === "stdio" ? (
          <>
            <Field id={`${id}-command`} label="Command" error={err("command")} hint="The program to start, e.g. npx, uvx, or an absolute path.">
              <Input
                id={`${id}-command`}
                data-testid="mcp-command"
                className="font-mono text-[13px]"
                placeholder="npx"
                value={draft.command}
                onChange={(e) => change({ command: e.target.value })}
                aria-invalid={err("command") ? true : undefined}
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
            <Field id={`${id}-args`} label="Arguments" error={err("args")} hint="One per line, passed as they are (no shell).">
              <Textarea
                id={`${id}-args`}
                data-testid="mcp-args"
                rows={3}
                className="resize-y font-mono text-[13px]"
                placeholder={"-y\n@modelcontextprotocol/server-everything"}
                value={draft.args}
                onChange={(e) => change({ args: e.target.value })}
                spellCheck={false}
              />
            </Field>
            <Section label="Environment" hint="Added to a sanitized copy of the host environment (variables that look like credentials are removed from it).">
              <KvRows field="env" rows={draft.env} onChange={(env) => change({ env })} errors={errors} showErrors={showErrors} keyPlaceholder="NAME" />
            </Section>
            <Field id={`${id}-cwd`} label="Working directory" optional error={err("cwd")}>
              <Input
                id={`${id}-cwd`}
                data-testid="mcp-cwd"
                className="font-mono text-[13px]"
                placeholder="/home/you/servers"
                value={draft.cwd}
                onChange={(e) => change({ cwd: e.target.value })}
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
          </>
        ) : (
          <>
            <Field id={`${id}-url`} label="URL" error={err("url")} hint="The server's Streamable HTTP endpoint. SSE-only servers are not supported.">
              <Input
                id={`${id}-url`}
                data-testid="mcp-url"
                className="font-mono text-[13px]"
                placeholder="http://127.0.0.1:3001/mcp"
                value={draft.url}
                onChange={(e) => change({ url: e.target.value })}
                aria-invalid={err("url") ? true : undefined}
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
            <Field
              id={`${id}-bearer`}
              label="Bearer token environment variable"
              optional
              error={err("bearerTokenEnv")}
              hint={<>The <em>name</em> of a host variable; Seam sends its value as <code className="font-mono">Authorization: Bearer …</code>.</>}
            >
              <Input
                id={`${id}-bearer`}
                data-testid="mcp-bearer-env"
                className="max-w-xs font-mono text-[13px]"
                placeholder="GITHUB_TOKEN"
                value={draft.bearerTokenEnv}
                onChange={(e) => change({ bearerTokenEnv: e.target.value })}
                aria-invalid={err("bearerTokenEnv") ? true : undefined}
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
            <Section label="Headers" hint="Secret headers must come from environment variables.">
              <KvRows field="headers" rows={draft.headers} onChange={(headers) => change({ headers })} errors={errors} showErrors={showErrors} keyPlaceholder="X-Header" />
            </Section>
          </>
        )}

        <div className="rounded-lg border">
          <button
            type="button"
            data-testid="mcp-advanced"
            aria-expanded={advanced}
            onClick={() => setAdvanced((a) => !a)}
            className="flex w-full cursor-pointer items-center gap-1.5 px-3 py-2 text-left text-[13px] font-medium hover:bg-muted/60"
          >
            <ChevronRightIcon className={cn("size-3.5 text-muted-foreground transition-transform", advanced && "rotate-90")} />
            Advanced
            <span className="font-normal text-muted-foreground">— timeouts, startup failure, enabled</span>
          </button>
          {advanced && (
            <div className="flex flex-col gap-4 border-t px-3 py-3">
              <div className="flex flex-wrap gap-4">
                <Field id={`${id}-startup`} label="Startup timeout (s)" error={err("startupTimeout")}>
                  <Input id={`${id}-startup`} data-testid="mcp-startup-timeout" type="number" min={1} max={600} className="w-28 tabular-nums" value={draft.startupTimeout} onChange={(e) => change({ startupTimeout: e.target.value })} aria-invalid={err("startupTimeout") ? true : undefined} />
                </Field>
                <Field id={`${id}-call`} label="Call timeout (s)" error={err("callTimeout")}>
                  <Input id={`${id}-call`} data-testid="mcp-call-timeout" type="number" min={1} max={3600} className="w-28 tabular-nums" value={draft.callTimeout} onChange={(e) => change({ callTimeout: e.target.value })} aria-invalid={err("callTimeout") ? true : undefined} />
                </Field>
              </div>
              <Check id={`${id}-fail`} testId="mcp-fail-on-startup" checked={draft.failOnStartupError} onChange={(v) => change({ failOnStartupError: v })}>
                Fail on startup error — if the first connection or tool discovery fails, do not save the server.
              </Check>
              <Check id={`${id}-enabled`} testId="mcp-enabled" checked={draft.enabled} onChange={(v) => change({ enabled: v })}>
                Enabled — start the server and offer its tools to the agent.
              </Check>
            </div>
          )}
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-3 border-t px-5 py-3">
        <Button type="submit" data-testid="mcp-save" disabled={save.isPending}>
          {save.isPending ? <><LoaderCircleIcon className="animate-spin" /> Connecting…</> : editing ? "Save and restart" : "Add server"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        {save.isPending && <span className="text-[12px] text-muted-foreground">Waiting for the server to connect and list its tools…</span>}
        {save.isSuccess && (
          <span role="status" className="inline-flex items-center gap-1 text-[13px] text-success">
            <CheckIcon className="size-4" /> Saved
          </span>
        )}
        {formError && (
          <FieldError data-testid="mcp-form-error" className="basis-full rounded-lg bg-destructive-soft px-3 py-2 text-[13px]">
            {formError}
          </FieldError>
        )}
      </div>
    </form>
  );
}

function Field({ id, label, hint, error, optional, children }: { id: string; label: string; hint?: ReactNode; error?: string; optional?: boolean; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>
        {label} {optional && <span className="font-normal text-muted-foreground">(optional)</span>}
      </Label>
      {children}
      {error ? <FieldError data-testid="mcp-field-error">{error}</FieldError> : hint ? <FieldHint>{hint}</FieldHint> : null}
    </div>
  );
}

function Section({ label, hint, children }: { label: string; hint: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-[13px] font-medium">{label}</span>
      <FieldHint className="-mt-1">{hint}</FieldHint>
      {children}
    </div>
  );
}

function Check({ id, testId, checked, onChange, children }: { id: string; testId: string; checked: boolean; onChange: (v: boolean) => void; children: ReactNode }) {
  return (
    <label htmlFor={id} className="flex cursor-pointer items-start gap-2 text-[13px] leading-snug">
      <input id={id} data-testid={testId} type="checkbox" className="mt-0.5 size-4 accent-primary" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{children}</span>
    </label>
  );
}
