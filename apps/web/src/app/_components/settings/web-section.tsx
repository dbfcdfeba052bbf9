"use client";
import type { WebHealth, WebKind, WebKindHealth, WebSettings } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LockIcon } from "lucide-react";
import { useId, type ReactNode } from "react";
import { TextField, type TextFieldProps } from "@/components/ui/field";
import { FieldHint, NativeSelect } from "@/components/ui/input";
import { hostCodeOf } from "@/lib/host-error";
import { useInvalidate } from "@/lib/use-invalidate";
import { useSettingsForm, type SettingsForm } from "@/lib/use-settings-form";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { QueryNotice, SectionCard, StatusPill } from "../shell/section-card";
import { SaveBar } from "./save-bar";
import { describeErrorKey, draftFrom, optionProviderIds, parseDraft, type ProviderDraft, type WebDraft, type WebDraftErrors } from "./web-draft";
import { AllowlistEditor, ProviderOptionsFields, ToolSwitch, WebField } from "./web-fields";
import { WebHealthTable } from "./web-health";
import { WebSelectionNote } from "./web-selection";

/** Settings → Web (WEB-11): providers and their health, selection in words, limits and the fetch allowlist. */
export function WebSection() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.web.settings.queryOptions());
  // No subscription carries provider health; tool calls elsewhere update the last call, so poll gently.
  const health = useQuery({ ...trpc.web.health.queryOptions(), refetchInterval: 5_000 });
  const ready = health.data && health.data.search.selection.ok && health.data.fetch.selection.ok;
  return (
    <SectionCard
      id="web"
      data-testid="web-section"
      className="mt-6 scroll-mt-6"
      headingId="web-heading"
      title="Web"
      description={
        <>
          Which provider answers <span className="font-mono text-[12.5px]">web_search</span> and <span className="font-mono text-[12.5px]">web_fetch</span>,
          whether it works right now, and what web_fetch may reach.
        </>
      }
      status={health.data && (ready ? <StatusPill tone="success">Ready</StatusPill> : <StatusPill tone="warning">Needs attention</StatusPill>)}
    >
      <div className="px-5 py-5">
        <QueryNotice query={settings} what="the web settings" />
        {health.isError && <p className="mb-3 text-[13px] text-destructive">Could not load provider health: {health.error.message}</p>}
        {settings.data && <WebForm settings={settings.data} health={health.data} />}
      </div>
    </SectionCard>
  );
}

function WebForm({ settings, health }: { settings: WebSettings; health: WebHealth | undefined }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const form = useSettingsForm({
    initial: () => draftFrom(settings),
    parse: parseDraft,
    save: (value) => client.web.setSettings.mutate(value),
    onSaved: (next) => {
      queryClient.setQueryData(trpc.web.settings.queryKey(), next);
      invalidate(trpc.web.health.queryKey(), trpc.capabilities.list.queryKey(), trpc.tools.list.queryKey());
      return draftFrom(next);
    },
  });
  const { draft, update, errors: shown } = form;
  const updateProvider = (id: string, patch: Partial<ProviderDraft>) =>
    update({ providers: { ...draft.providers, [id]: { ...(draft.providers[id] ?? { baseURL: "", apiKeyEnv: "", model: "" }), ...patch } } });

  const hostCode = hostCodeOf(form.error);
  const serverError = form.error?.message ?? null;
  // A refused env-door change belongs next to the selector it concerns.
  const conflictKind = (kind: WebKind): string | undefined => {
    if (hostCode !== "provider_setting_conflict" || !health) return undefined;
    const h = health[kind];
    const wanted = draft[KIND_KEYS[kind].provider];
    return h.lockedByEnv && wanted !== (h.configuredId ?? "") ? (serverError ?? undefined) : undefined;
  };
  const clientErrors = Object.keys(shown);
  const optionIds = optionProviderIds(health?.search, settings);

  return (
    <form onSubmit={form.submit} noValidate className="flex flex-col gap-6" data-testid="web-form">
      <KindBlock kind="search" form={form} saved={settings} health={health?.search} conflict={conflictKind("search")}>
        <Sub title="Provider settings" hint="Keys never go here — only the name of the variable that holds one, read from the host's environment or $SEAM_HOME/secrets.json (mode 0600). Empty fields use the defaults shown.">
          <div className="flex flex-col gap-2">
            {optionIds.map((id) => (
              <ProviderOptionsFields
                key={id}
                id={id}
                health={health?.search.providers.find((p) => p.id === id && p.registered)}
                value={draft.providers[id] ?? { baseURL: "", apiKeyEnv: "", model: "" }}
                onChange={(patch) => updateProvider(id, patch)}
                errors={shown}
              />
            ))}
          </div>
        </Sub>
        <Sub title="Limits">
          <div className="grid gap-3 sm:grid-cols-3">
            <NumberField label="Queries per call" testId="web-search-max-queries" {...form.field("searchMaxQueries")} hint="1–10 (default 4)" />
            <NumberField label="Sources per call" testId="web-search-max-results" {...form.field("searchMaxResults")} hint="1–50, merged across queries (default 8)" />
            <NumberField label="Timeout (seconds)" testId="web-search-timeout" {...form.field("searchTimeoutS")} hint="1–600 (default 30)" step="any" />
          </div>
        </Sub>
      </KindBlock>

      <KindBlock kind="fetch" form={form} saved={settings} health={health?.fetch} conflict={conflictKind("fetch")}>
        <Sub title="Limits">
          <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.6fr)]">
            <NumberField label="Characters shown" testId="web-fetch-max-chars" {...form.field("fetchMaxChars")} hint="1,000–1,000,000 (default 200,000)" />
            <NumberField label="Timeout (seconds)" testId="web-fetch-timeout" {...form.field("fetchTimeoutS")} hint="1–600 (default 30)" step="any" />
            <TextField
              code
              label="Probe URL"
              testId="web-fetch-probe-url"
              {...form.field("fetchProbeUrl")}
              errorTestId="web-field-error"
              hint="What the fetch probe requests, through the guard."
              placeholder="https://example.com/"
              inputClassName="h-8 text-[12.5px]"
            />
          </div>
        </Sub>
        <Sub title="Fetch allowlist">
          <AllowlistEditor rows={draft.fetchAllowlist} onChange={(fetchAllowlist) => update({ fetchAllowlist })} errors={shown} />
        </Sub>
      </KindBlock>

      <SaveBar
        name="web"
        pending={form.pending}
        saved={form.saved}
        code={hostCode ?? (serverError ? "error" : "invalid")}
        errorClassName="max-w-xl"
        error={
          serverError
            ? `Not saved — ${serverError}`
            : clientErrors.length > 0
              ? `Not saved — check ${[...new Set(clientErrors.map(describeErrorKey))].join(", ")}.`
              : null
        }
      />
    </form>
  );
}

const KIND_TEXT: Record<WebKind, { title: string; tool: string; blurb: string }> = {
  search: { title: "Search", tool: "web_search", blurb: "Answers web_search through one search engine; the model never learns which." },
  fetch: { title: "Fetch", tool: "web_fetch", blurb: "Reads one page for web_fetch, behind the SSRF guard." },
};

/** The draft's fields for each kind. */
const KIND_KEYS = {
  search: { enabled: "searchEnabled", provider: "searchProvider" },
  fetch: { enabled: "fetchEnabled", provider: "fetchProvider" },
} as const satisfies Record<WebKind, { enabled: keyof WebDraft; provider: keyof WebDraft & keyof WebSettings }>;

function KindBlock({
  kind,
  form,
  saved,
  health,
  conflict,
  children,
}: {
  kind: WebKind;
  form: SettingsForm<WebDraft, WebDraftErrors>;
  saved: WebSettings;
  health: WebKindHealth | undefined;
  conflict?: string;
  children: ReactNode;
}) {
  const keys = KIND_KEYS[kind];
  const enabled = form.draft[keys.enabled];
  const onEnabled = (on: boolean) => form.update({ [keys.enabled]: on });
  const provider = form.draft[keys.provider];
  const savedProvider = saved[keys.provider] ?? "";
  const onProvider = (id: string) => form.update({ [keys.provider]: id });
  const selectId = useId();
  const text = KIND_TEXT[kind];
  const locked = health?.lockedByEnv === true;
  const registered = (health?.providers ?? []).filter((p) => p.registered);
  const unknown = provider && !registered.some((p) => p.id === provider) ? provider : null;
  const toolOff = health && !health.enabled && !enabled;
  return (
    <div data-testid="web-kind" data-kind={kind} className="flex flex-col gap-4 [&+&]:border-t [&+&]:pt-6">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h3 className="flex items-baseline gap-2 text-[14px] font-semibold">
            {text.title} <span className="font-mono text-[12px] font-normal text-muted-foreground">{text.tool}</span>
          </h3>
          <p className="mt-0.5 text-[12.5px] text-muted-foreground">{text.blurb}</p>
        </div>
        <ToolSwitch testId={`web-${kind}-enabled`} tool={text.tool} checked={enabled} onChange={onEnabled} />
      </div>
      {toolOff && (
        <p className="rounded-lg bg-muted/60 px-3 py-2 text-[12.5px] text-muted-foreground">
          <span className="font-mono">{text.tool}</span> is off: the model does not see it. Turn it on and save to register it — whatever the providers&apos; state.
        </p>
      )}

      <WebField
        id={selectId}
        label={`${text.title} provider`}
        error={conflict}
        hint={
          locked ? (
            <span className="inline-flex items-start gap-1">
              <LockIcon className="mt-0.5 size-3 shrink-0" />
              <span>
                Set to <span className="font-mono">{health?.configuredId}</span> by <span className="font-mono">{health?.envVar}</span> in the host&apos;s environment. The
                variable and this field are one setting: unset it and restart Seam to choose here.
              </span>
            </span>
          ) : provider !== savedProvider ? (
            <span className="text-warning">Not saved yet — the status below is for the saved choice.</span>
          ) : (
            <>
              “Not set” uses the only available provider and fails when several are available. Also settable with <span className="font-mono">{health?.envVar ?? `SEAM_WEB_${kind.toUpperCase()}_PROVIDER`}</span>.
            </>
          )
        }
      >
        <NativeSelect
          id={selectId}
          data-testid={`web-${kind}-provider`}
          value={provider}
          disabled={locked}
          onChange={(e) => onProvider(e.target.value)}
          className="max-w-sm"
          aria-invalid={conflict ? true : undefined}
        >
          <option value="">Not set — use the only available one</option>
          {registered.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label} ({p.id}){p.available ? "" : " — not available"}
            </option>
          ))}
          {unknown && <option value={unknown}>{unknown} — not registered</option>}
        </NativeSelect>
      </WebField>

      {health ? (
        <>
          <WebSelectionNote health={health} />
          <WebHealthTable health={health} />
        </>
      ) : (
        <p className="text-[13px] text-muted-foreground">Loading provider health…</p>
      )}
      {children}
    </div>
  );
}

function Sub({ title, hint, children }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <div>
        <span className="text-[13px] font-medium">{title}</span>
        {hint && <FieldHint className="mt-0.5">{hint}</FieldHint>}
      </div>
      {children}
    </div>
  );
}

/** A number input in the web form's compact style. */
function NumberField(props: Omit<TextFieldProps, "errorTestId">) {
  return <TextField errorTestId="web-field-error" type="number" inputMode="numeric" inputClassName="h-8 tabular-nums" {...props} />;
}
