"use client";
import type { WebProviderHealth } from "@seam/shared";
import { PlusIcon, ShieldAlertIcon, XIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { useId, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormField, TextField, type FormFieldProps, type TextFieldProps } from "@/components/ui/field";
import { FieldError, FieldHint, Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { allowlistProblem, allowRow, PROVIDER_DEFAULTS, type AllowRow, type ProviderDefaults, type ProviderDraft, type WebDraftErrors } from "./web-draft";

/** A field of the web form; its errors carry `web-field-error`. */
export function WebField(props: Omit<FormFieldProps, "errorTestId">) {
  return <FormField errorTestId="web-field-error" {...props} />;
}

/** A monospace text input of the web form. */
function WebText(props: Omit<TextFieldProps, "errorTestId" | "inputClassName">) {
  return <TextField code errorTestId="web-field-error" inputClassName="h-8 text-[12.5px]" {...props} />;
}

/** A tool's on/off switch; the tool is registered by this, never by provider health (WEB-7). */
export function ToolSwitch({ testId, tool, checked, onChange }: { testId: string; tool: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-[12.5px] text-muted-foreground">
      {checked ? "On" : "Off"}
      <Switch.Root
        data-testid={testId}
        aria-label={`${tool} enabled`}
        checked={checked}
        onCheckedChange={onChange}
        className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors aria-checked:bg-primary"
      >
        <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-[18px]" />
      </Switch.Root>
    </label>
  );
}

/** A provider's option fields, in the order shown; the placeholder is the host's default. */
const OPTION_FIELDS: { key: keyof ProviderDraft; label: string; testId: string; placeholder: (d: ProviderDefaults) => string }[] = [
  { key: "baseURL", label: "Base URL", testId: "web-provider-base-url", placeholder: (d) => d.baseURL ?? "https://…" },
  { key: "apiKeyEnv", label: "API key variable", testId: "web-provider-key-env", placeholder: (d) => d.keyEnv ?? "PROVIDER_API_KEY" },
  { key: "model", label: "Model", testId: "web-provider-model", placeholder: (d) => d.model ?? "model id" },
];

/** Base URL, key variable and (for model-backed providers) model id of one search provider. */
export function ProviderOptionsFields({
  id,
  health,
  value,
  onChange,
  errors,
}: {
  id: string;
  health?: WebProviderHealth;
  value: ProviderDraft;
  onChange: (patch: Partial<ProviderDraft>) => void;
  errors: WebDraftErrors;
}) {
  const defaults = PROVIDER_DEFAULTS[id] ?? {};
  const hasModel = defaults.model !== undefined || value.model !== "" || !(id in PROVIDER_DEFAULTS);
  const err = (f: string) => errors[`providers.${id}.${f}`];
  return (
    <div data-testid="web-provider-options" data-id={id} className="flex flex-col gap-2 rounded-lg border bg-muted/25 px-3 py-2.5">
      <div className="flex items-baseline gap-1.5 text-[13px]">
        <span className="font-medium">{health?.label ?? id}</span>
        {health?.label !== id && <span className="font-mono text-[11.5px] text-muted-foreground">{id}</span>}
        {!health && <span className="text-[11.5px] text-warning">not registered in this host</span>}
      </div>
      <div className={cn("grid gap-2.5", hasModel ? "sm:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)]" : "sm:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)]")}>
        {OPTION_FIELDS.filter((f) => f.key !== "model" || hasModel).map((f) => (
          <WebText
            key={f.key}
            label={f.label}
            error={err(f.key)}
            testId={f.testId}
            data-id={id}
            placeholder={f.placeholder(defaults)}
            value={value[f.key]}
            onChange={(text) => onChange({ [f.key]: text })}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * The fetch allowlist (WEB-9): one host, `*.suffix`, IP or CIDR per row. The only way web_fetch may
 * reach a private, loopback or link-local address.
 */
export function AllowlistEditor({ rows, onChange, errors }: { rows: AllowRow[]; onChange: (rows: AllowRow[]) => void; errors: WebDraftErrors }) {
  const inputId = useId();
  const [entry, setEntry] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const add = () => {
    const value = entry.trim();
    if (!value) {
      setProblem("Type a host name, IP address or CIDR first");
      return;
    }
    const bad = allowlistProblem(value);
    if (bad) {
      setProblem(bad);
      return;
    }
    if (rows.some((r) => r.value.trim().toLowerCase() === value.toLowerCase())) {
      setProblem(`${value} is already in the list`);
      return;
    }
    onChange([...rows, allowRow(value)]);
    setEntry("");
    setProblem(null);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start gap-2 rounded-lg bg-muted/60 px-3 py-2 text-[12.5px] leading-relaxed text-muted-foreground">
        <ShieldAlertIcon className="mt-0.5 size-3.5 shrink-0" />
        <span>
          <span className="font-mono">web_fetch</span> refuses loopback, private, link-local, CGNAT and cloud-metadata addresses before it connects, so a
          page cannot steer the agent into your network. An entry here is the <em>only</em> way past that guard: list just the internal hosts the agent
          should read.
        </span>
      </div>
      {rows.length > 0 && (
        <ul data-testid="web-allowlist" className="flex flex-col gap-1.5">
          {rows.map((r) => {
            const error = errors[`fetchAllowlist.${r.id}`] ?? (r.value.trim() ? allowlistProblem(r.value.trim()) : null);
            return (
              <li key={r.id} data-testid="web-allowlist-row" className="flex flex-col gap-1">
                <div className="flex items-center gap-1.5">
                  <Input
                    aria-label="Allowlist entry"
                    data-testid="web-allowlist-entry"
                    className="h-8 max-w-sm font-mono text-[12.5px]"
                    value={r.value}
                    onChange={(e) => onChange(rows.map((x) => (x.id === r.id ? { ...x, value: e.target.value } : x)))}
                    aria-invalid={error ? true : undefined}
                    spellCheck={false}
                    autoComplete="off"
                  />
                  <Button
                    variant="subtle"
                    size="icon-sm"
                    className="size-8"
                    data-testid="web-allowlist-remove"
                    aria-label={`Remove ${r.value}`}
                    onClick={() => onChange(rows.filter((x) => x.id !== r.id))}
                  >
                    <XIcon />
                  </Button>
                </div>
                {error && <FieldError>{error}</FieldError>}
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex items-center gap-1.5">
        <Input
          id={inputId}
          aria-label="New allowlist entry"
          data-testid="web-allowlist-input"
          className="h-8 max-w-sm font-mono text-[12.5px]"
          placeholder="intranet.example, *.corp.example or 10.0.0.0/8"
          value={entry}
          onChange={(e) => {
            setEntry(e.target.value);
            setProblem(null);
          }}
          onKeyDown={onKey}
          aria-invalid={problem ? true : undefined}
          spellCheck={false}
          autoComplete="off"
        />
        <Button variant="outline" size="sm" data-testid="web-allowlist-add" onClick={add}>
          <PlusIcon /> Add
        </Button>
      </div>
      {problem ? (
        <FieldError data-testid="web-allowlist-error">{problem}</FieldError>
      ) : (
        <FieldHint>{rows.length === 0 ? "Empty: web_fetch reaches public addresses only." : "Changes apply to the next call once saved."}</FieldHint>
      )}
    </div>
  );
}
