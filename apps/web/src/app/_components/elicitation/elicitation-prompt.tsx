"use client";
import {
  elicitFields, elicitInitialForm, prepareElicitAnswer, type ElicitField, type ElicitForm, type ElicitFormValue, type McpElicitationAnswer,
  type McpElicitationView,
} from "@seam/shared";
import { ExternalLinkIcon, MessageSquareTextIcon } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label, NativeSelect } from "@/components/ui/input";
import { cn } from "@/lib/utils";

export type ElicitationAction = McpElicitationAnswer["action"];

/**
 * What an MCP server asks the person during a tool call (MCP-12): a form built from the requested schema (defaults filled
 * in, required fields marked, problems shown by the field) with Accept / Decline / Cancel, or a URL to open with why.
 */
export function ElicitationPrompt({ view, sending, error, onAnswer, className }: {
  view: McpElicitationView;
  /** The action being sent, if any (the buttons wait). */
  sending: ElicitationAction | null;
  /** Why the last answer failed (the host's words). */
  error: string | null;
  onAnswer(answer: McpElicitationAnswer): void;
  className?: string;
}) {
  return (
    <section
      data-testid="elicitation-card"
      data-request-id={view.id}
      data-mode={view.mode}
      aria-label={`${view.server} asks for input`}
      className={cn("flex flex-col gap-3 rounded-xl border border-warning/50 bg-card px-3.5 py-3 text-[13px]", className)}
    >
      <header className="flex items-start gap-2">
        <MessageSquareTextIcon className="mt-0.5 size-4 shrink-0 text-warning" />
        <div className="min-w-0">
          <p className="font-medium">
            <span className="font-mono">{view.server}</span> asks for input{view.tool ? <span className="text-muted-foreground"> during {view.tool}</span> : null}
          </p>
          <p data-testid="elicitation-message" className="mt-0.5 whitespace-pre-wrap text-foreground/85">{view.message}</p>
        </div>
      </header>
      {view.mode === "url" ? <UrlBody view={view} sending={sending} onAnswer={onAnswer} /> : <FormBody view={view} sending={sending} onAnswer={onAnswer} />}
      {error && <p data-testid="elicitation-error" role="alert" className="text-[12.5px] text-destructive">{error}</p>}
    </section>
  );
}

function UrlBody({ view, sending, onAnswer }: { view: McpElicitationView; sending: ElicitationAction | null; onAnswer(a: McpElicitationAnswer): void }) {
  const url = view.url ?? "";
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // shown as given
  }
  return (
    <>
      <p className="rounded-md border bg-code px-2.5 py-1.5 font-mono text-[12px] break-all" data-testid="elicitation-url">
        {url}
      </p>
      <p className="text-[12px] text-muted-foreground">Opening it goes to <span className="font-medium text-foreground">{host}</span> in a new tab; only open it if you trust this server.</p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={sending !== null}
          data-testid="elicitation-open"
          onClick={() => {
            window.open(url, "_blank", "noopener,noreferrer");
            onAnswer({ id: view.id, action: "accept", content: {} });
          }}
        >
          <ExternalLinkIcon /> Open
        </Button>
        <Actions view={view} sending={sending} onAnswer={onAnswer} />
      </div>
    </>
  );
}

function Actions({ view, sending, onAnswer }: { view: McpElicitationView; sending: ElicitationAction | null; onAnswer(a: McpElicitationAnswer): void }) {
  return (
    <>
      <Button size="sm" variant="outline" type="button" disabled={sending !== null} data-testid="elicitation-decline" onClick={() => onAnswer({ id: view.id, action: "decline" })}>
        {sending === "decline" ? "Declining…" : "Decline"}
      </Button>
      <Button size="sm" variant="subtle" type="button" disabled={sending !== null} data-testid="elicitation-cancel" onClick={() => onAnswer({ id: view.id, action: "cancel" })}>
        {sending === "cancel" ? "Cancelling…" : "Cancel"}
      </Button>
    </>
  );
}

function FormBody({ view, sending, onAnswer }: { view: McpElicitationView; sending: ElicitationAction | null; onAnswer(a: McpElicitationAnswer): void }) {
  const { fields, unsupported } = useMemo(() => elicitFields(view.requestedSchema), [view.requestedSchema]);
  const [form, setForm] = useState<ElicitForm>(() => elicitInitialForm(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const set = (name: string, value: ElicitFormValue) => {
    const next = { ...form, [name]: value };
    setForm(next);
    // Once an accept was tried, problems update as they are fixed.
    if (tried) {
      const check = prepareElicitAnswer(fields, next);
      setErrors(check.ok ? {} : check.errors);
    }
  };
  const submit = () => {
    setTried(true);
    const check = prepareElicitAnswer(fields, form);
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    onAnswer({ id: view.id, action: "accept", content: check.content });
  };
  return (
    <form
      data-testid="elicitation-form"
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {fields.map((f) => (
        <FieldInput key={f.name} field={f} value={form[f.name]} error={errors[f.name]} onChange={(v) => set(f.name, v)} />
      ))}
      {unsupported.length > 0 && (
        <p className="text-[12px] text-muted-foreground">Not shown (Seam cannot ask for these kinds of values): {unsupported.join(", ")}.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" type="submit" disabled={sending !== null} data-testid="elicitation-accept">
          {sending === "accept" ? "Sending…" : "Accept"}
        </Button>
        <Actions view={view} sending={sending} onAnswer={onAnswer} />
      </div>
    </form>
  );
}

function FieldInput({ field, value, error, onChange }: { field: ElicitField; value: ElicitFormValue; error?: string; onChange(v: ElicitFormValue): void }) {
  const id = useId();
  const hint = [field.description, defaultHint(field)].filter(Boolean).join(" ");
  const describedBy = `${id}-note`;
  const common = { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy, "aria-required": field.required || undefined, "data-field": field.name };
  let control;
  switch (field.kind) {
    case "boolean":
      control = (
        <label className="flex items-center gap-2">
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} className="size-4" />
          <span>{field.title}</span>
        </label>
      );
      break;
    case "select":
      control = (
        <NativeSelect {...common} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">{field.required ? "Choose…" : "(none)"}</option>
          {field.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </NativeSelect>
      );
      break;
    case "multiselect": {
      const chosen = Array.isArray(value) ? value : [];
      control = (
        <div role="group" aria-labelledby={`${id}-label`} {...{ "data-field": field.name }} className="flex flex-wrap gap-x-4 gap-y-1.5">
          {field.options.map((o) => (
            <label key={o.value} className="flex items-center gap-1.5">
              <input
                type="checkbox"
                className="size-4"
                checked={chosen.includes(o.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))}
              />
              {o.label}
            </label>
          ))}
        </div>
      );
      break;
    }
    case "number":
    case "integer":
      control = (
        <Input
          {...common}
          inputMode={field.kind === "integer" ? "numeric" : "decimal"}
          value={typeof value === "string" || typeof value === "number" ? String(value) : ""}
          placeholder={field.default !== undefined ? String(field.default) : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case "string":
      control = (
        <Input
          {...common}
          type={field.format === "email" ? "email" : field.format === "uri" ? "url" : field.format === "date" ? "date" : "text"}
          value={typeof value === "string" ? value : ""}
          placeholder={field.default}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
  }
  return (
    <div className="flex min-w-0 flex-col gap-1.5" data-testid="elicitation-field" data-name={field.name}>
      {field.kind !== "boolean" && (
        <Label htmlFor={id}>
          <span id={`${id}-label`}>{field.title}</span>
          {field.required ? <span className="text-destructive" aria-label="required"> *</span> : <span className="font-normal text-muted-foreground"> (optional)</span>}
        </Label>
      )}
      {control}
      {error ? (
        <FieldError id={describedBy} data-testid="elicitation-field-error" data-field={field.name}>{error}</FieldError>
      ) : hint ? (
        <FieldHint id={describedBy}>{hint}</FieldHint>
      ) : null}
    </div>
  );
}

function defaultHint(f: ElicitField): string | null {
  if (f.default === undefined) return null;
  if (f.kind === "boolean") return `Default: ${f.default ? "yes" : "no"}.`;
  if (f.kind === "select") return `Default: ${f.options.find((o) => o.value === f.default)?.label ?? f.default}.`;
  if (f.kind === "multiselect") return `Default: ${f.default.map((d) => f.options.find((o) => o.value === d)?.label ?? d).join(", ")}.`;
  return null;
}
