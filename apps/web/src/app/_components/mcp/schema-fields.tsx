"use client";
import { FormField } from "@/components/ui/field";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import type { SchemaField } from "./schema-form";

/** The controls for schema fields (try a tool, prompt arguments): required ones marked, descriptions as hints, errors inline. */
export function SchemaFields({
  idPrefix, fields, values, errors, onChange, disabled,
}: {
  idPrefix: string;
  fields: SchemaField[];
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (name: string, value: string) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-col gap-3">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const value = values[f.name] ?? "";
        const label = f.required ? `${f.name} *` : f.name;
        const hint = [f.description, f.kind === "json" ? "JSON" : null].filter(Boolean).join(" · ") || undefined;
        return (
          <FormField key={f.name} id={id} label={label} optional={!f.required} hint={hint} error={errors[f.name]} errorTestId="mcp-field-error" errorField={f.name}>
            {f.kind === "boolean" ? (
              <input
                id={id}
                type="checkbox"
                data-testid="mcp-field"
                data-field={f.name}
                className="size-4 self-start"
                checked={value === "true"}
                disabled={disabled}
                onChange={(e) => onChange(f.name, e.target.checked ? "true" : "false")}
              />
            ) : f.kind === "enum" ? (
              <NativeSelect id={id} data-testid="mcp-field" data-field={f.name} value={value} disabled={disabled} onChange={(e) => onChange(f.name, e.target.value)}>
                <option value="">{f.required ? "Choose…" : "(none)"}</option>
                {f.options.map((o) => (
                  <option key={o} value={o}>{(() => { try { const v: unknown = JSON.parse(o); return typeof v === "string" ? v : o; } catch { return o; } })()}</option>
                ))}
              </NativeSelect>
            ) : f.kind === "json" ? (
              <Textarea id={id} data-testid="mcp-field" data-field={f.name} rows={3} className="font-mono text-[12px]" value={value} disabled={disabled} onChange={(e) => onChange(f.name, e.target.value)} />
            ) : (
              <Input
                id={id}
                data-testid="mcp-field"
                data-field={f.name}
                inputMode={f.kind === "number" || f.kind === "integer" ? "decimal" : undefined}
                value={value}
                disabled={disabled}
                aria-required={f.required}
                onChange={(e) => onChange(f.name, e.target.value)}
              />
            )}
          </FormField>
        );
      })}
    </div>
  );
}

/** `errors` without the message of field `key` (it is cleared as soon as the field changes). */
export function withoutKey(errors: Record<string, string>, key: string): Record<string, string> {
  if (!(key in errors)) return errors;
  const next = { ...errors };
  delete next[key];
  return next;
}
