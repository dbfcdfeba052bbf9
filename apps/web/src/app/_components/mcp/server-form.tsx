"use client";
import type { McpSaveResult, McpServerConfig } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { CheckIcon, LoaderCircleIcon } from "lucide-react";
import { useId, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ExpandButton } from "@/components/ui/expand-button";
import { TextField, type TextFieldProps } from "@/components/ui/field";
import { FieldError, FieldHint } from "@/components/ui/input";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { hostCodeOf } from "@/lib/host-error";
import { useSettingsForm } from "@/lib/use-settings-form";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { draftFrom, emptyDraft, parseDraft, type ServerDraft } from "./form-state";
import { KvRows } from "./kv-rows";
import { ProbeFailure } from "./probe-outcome";
import { failureOf, forcedText, savedText, tryingText } from "./save-state";
import { Sheet } from "./sheet";
import { useInvalidateMcp } from "./use-mcp";

/**
 * Add (no `editing`) or edit a server in a side sheet. Saving tries the server first (MCP-10); the sheet
 * closes only once the host confirmed the save, and `onSaved` gets the confirmation to show.
 */
export function ServerFormSheet({
  open,
  onOpenChange,
  editing,
  taken,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  editing: McpServerConfig | null;
  taken: string[];
  onSaved?: (message: string) => void;
}) {
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? `Edit ${editing.name}` : "Add MCP server"}
      description={
        editing
          ? "Saving restarts the server with the new settings. A changed command or URL is tried first; if the try fails, the previous settings stay."
          : "Seam tries the server first (starts or connects to it, initializes, lists its tools) and saves it only if that works, or when you choose Save anyway."
      }
    >
      {open && (
        <ServerForm
          key={editing?.name ?? "new"}
          editing={editing}
          taken={taken.filter((n) => n !== editing?.name)}
          onDone={() => onOpenChange(false)}
          onSaved={onSaved}
        />
      )}
    </Sheet>
  );
}

/** A fresh id for one try, so its progress can be polled while the save runs. */
const newProbeId = () => `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

function ServerForm({ editing, taken, onDone, onSaved }: { editing: McpServerConfig | null; taken: string[]; onDone: () => void; onSaved?: (message: string) => void }) {
  const client = useTRPCClient();
  const trpc = useTRPC();
  // "Save anyway" is a second step: it sets this for the one submit it triggers.
  const forceNext = useRef(false);
  const forcedLast = useRef(false);
  const [attempt, setAttempt] = useState<{ probeId: string; force: boolean; tries: boolean } | null>(null);
  const invalidate = useInvalidateMcp();
  const id = useId();
  const [advanced, setAdvanced] = useState(false);
  const form = useSettingsForm({
    initial: () => (editing ? draftFrom(editing) : emptyDraft()),
    parse: (draft: ServerDraft) => parseDraft(draft, taken),
    save: (value: McpServerConfig): Promise<McpSaveResult> => {
      const next = { probeId: newProbeId(), force: forceNext.current };
      forceNext.current = false;
      forcedLast.current = next.force;
      // What the host tries (apps/host/src/mcp/README.md): a new enabled server, or an edit that changes how it is reached or enables it.
      const tries = !next.force && value.enabled && (!editing || !editing.enabled || JSON.stringify(editing.transport) !== JSON.stringify(value.transport));
      setAttempt({ ...next, tries });
      return editing ? client.mcp.update.mutate({ name: editing.name, config: value, ...next }) : client.mcp.add.mutate({ ...value, ...next });
    },
    onInvalid: (errors) => {
      if (errors.startupTimeout || errors.callTimeout) setAdvanced(true);
    },
    onSaved: (result) => {
      invalidate();
      const forced = result.probe === null && forcedLast.current && result.config.enabled;
      onSaved?.(forced ? forcedText(result.config.name) : savedText(result, editing ? "Saved" : "Added"));
      onDone();
    },
  });
  const { draft, update: change, errors } = form;
  const trying = form.pending && attempt !== null && attempt.tries;
  const progress = useQuery({
    ...trpc.mcp.probeStatus.queryOptions({ probeId: attempt?.probeId ?? "no-probe-yet" }),
    enabled: trying,
    refetchInterval: trying ? 250 : false,
    retry: false,
  });
  const failure = failureOf(form.error, editing !== null);
  const saveAnyway = () => {
    forceNext.current = true;
    form.submit();
  };

  const err = (field: string) => errors[field];
  const hostCode = hostCodeOf(form.error);
  const nameError = err("name") ?? (hostCode === "conflict:mcp" ? form.error?.message : undefined);
  const count = Object.keys(errors).length;
  const formError = failure
    ? null
    : form.error
    ? `Not saved — ${form.error.message}`
    : count > 0
      ? `Not saved — fix the ${count === 1 ? "field" : `${count} fields`} marked above.`
      : null;

  return (
    <form onSubmit={form.submit} noValidate data-testid="mcp-form" className="flex min-h-0 flex-1 flex-col">
      <div className="scroll-thin flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto px-5 py-5">
        <McpText
          label="Name"
          hint="Tools appear as mcp__<name>__<tool>. Letters, digits, '-' and '_'."
          testId="mcp-name"
          inputClassName="max-w-xs text-[13px]"
          placeholder="everything"
          {...form.field("name")}
          error={nameError}
          autoFocus={!editing}
          code
        />

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
            <McpText
              code
              label="Command"
              hint="The program to start, e.g. npx, uvx, or an absolute path."
              testId="mcp-command"
              inputClassName="text-[13px]"
              placeholder="npx"
              {...form.field("command")}
            />
            <McpText
              code
              label="Arguments"
              hint="One per line, passed as they are (no shell)."
              testId="mcp-args"
              rows={3}
              inputClassName="resize-y text-[13px]"
              placeholder={"-y\n@modelcontextprotocol/server-everything"}
              {...form.field("args")}
            />
            <Section label="Environment" hint="Added to a sanitized copy of the host environment (variables that look like credentials are removed from it).">
              <KvRows field="env" rows={draft.env} onChange={(env) => change({ env })} errors={errors} showErrors={form.validating} keyPlaceholder="NAME" />
            </Section>
            <McpText
              code
              label="Working directory"
              optional
              testId="mcp-cwd"
              inputClassName="text-[13px]"
              placeholder="/home/you/servers"
              {...form.field("cwd")}
            />
          </>
        ) : (
          <>
            <McpText
              code
              label="URL"
              hint="The server's Streamable HTTP endpoint. SSE-only servers are not supported."
              testId="mcp-url"
              inputClassName="text-[13px]"
              placeholder="http://127.0.0.1:3001/mcp"
              {...form.field("url")}
            />
            <McpText
              label="Bearer token environment variable"
              optional
              hint={<>The <em>name</em> of a host variable; Seam sends its value as <code className="font-mono">Authorization: Bearer …</code>.</>}
              testId="mcp-bearer-env"
              inputClassName="max-w-xs text-[13px]"
              placeholder="GITHUB_TOKEN"
              {...form.field("bearerTokenEnv")}
              code
            />
            <Section label="Headers" hint="Secret headers must come from environment variables.">
              <KvRows field="headers" rows={draft.headers} onChange={(headers) => change({ headers })} errors={errors} showErrors={form.validating} keyPlaceholder="X-Header" />
            </Section>
            <Section
              label="Sign-in (OAuth)"
              hint="Only for servers that ask you to sign in. Left empty, Seam registers itself with the server's authorization server when it needs to; fill these in for a client registered there beforehand."
            >
              <div data-testid="mcp-oauth-fields" className="flex flex-wrap gap-4">
                <McpText label="Client id" optional testId="mcp-oauth-client-id" inputClassName="w-64 text-[13px]" {...form.field("oauthClientId")} />
                <McpText
                  label="Client secret variable"
                  optional
                  hint={<>The <em>name</em> of a host variable or secrets-file key holding the secret.</>}
                  testId="mcp-oauth-secret-env"
                  inputClassName="w-64 text-[13px]"
                  placeholder="MY_SERVER_CLIENT_SECRET"
                  code
                  {...form.field("oauthClientSecretEnv")}
                />
                <McpText
                  label="Client metadata document URL"
                  optional
                  hint="An https URL describing Seam, used as the client id where the authorization server supports it."
                  testId="mcp-oauth-metadata-url"
                  inputClassName="w-96 text-[13px]"
                  {...form.field("oauthClientMetadataUrl")}
                />
                <McpText label="Scopes" optional hint="Asked for when the server names none." testId="mcp-oauth-scope" inputClassName="w-64 text-[13px]" {...form.field("oauthScope")} />
              </div>
            </Section>
          </>
        )}

        <div className="rounded-lg border">
          <ExpandButton
            data-testid="mcp-advanced"
            open={advanced}
            onClick={() => setAdvanced((a) => !a)}
            className="w-full rounded-none px-3 py-2 text-[13px] font-medium hover:bg-muted/60 hover:text-inherit"
          >
            Advanced
            <span className="font-normal text-muted-foreground">— timeouts, startup failure, enabled</span>
          </ExpandButton>
          {advanced && (
            <div className="flex flex-col gap-4 border-t px-3 py-3">
              <div className="flex flex-wrap gap-4">
                <McpText
                  label="Startup timeout (s)"
                  testId="mcp-startup-timeout"
                  type="number"
                  min={1}
                  max={600}
                  inputClassName="w-28 tabular-nums"
                  {...form.field("startupTimeout")}
                />
                <McpText
                  label="Call timeout (s)"
                  testId="mcp-call-timeout"
                  type="number"
                  min={1}
                  max={3600}
                  inputClassName="w-28 tabular-nums"
                  {...form.field("callTimeout")}
                />
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
        <Button type="submit" data-testid="mcp-save" disabled={form.pending}>
          {form.pending ? <><LoaderCircleIcon className="animate-spin" /> {trying ? "Trying…" : "Saving…"}</> : editing ? "Save and restart" : "Add server"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone} disabled={form.pending}>
          Cancel
        </Button>
        {form.pending && (
          <span data-testid="mcp-save-progress" role="status" className="text-[12px] text-muted-foreground">
            {trying ? tryingText(progress.data) : "Saving…"}
          </span>
        )}
        {form.saved && (
          <span role="status" className="inline-flex items-center gap-1 text-[13px] text-success">
            <CheckIcon className="size-4" /> Saved
          </span>
        )}
        {failure && !form.pending && (
          <div className="basis-full">
            <ProbeFailure failure={failure} onSaveAnyway={saveAnyway} busy={form.pending} />
          </div>
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

function McpText(props: Omit<TextFieldProps, "errorTestId">) {
  return <TextField errorTestId="mcp-field-error" {...props} />;
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
