"use client";
import { PlusIcon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FieldError, Input, NativeSelect } from "@/components/ui/input";
import { envNameFor, needsEnvRef, newRow, type KvRow } from "./form-state";

/**
 * Key → value rows for env vars or headers. Each value is either typed here or read from a host
 * environment variable; secrets must be the latter (SEC-2), and a row that looks like one says so.
 */
export function KvRows({
  field,
  rows,
  onChange,
  errors,
  showErrors,
  keyPlaceholder,
}: {
  field: "env" | "headers";
  rows: KvRow[];
  onChange: (rows: KvRow[]) => void;
  errors: Record<string, string>;
  showErrors: boolean;
  keyPlaceholder: string;
}) {
  const set = (id: string, patch: Partial<KvRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <div className="flex flex-col gap-2" data-testid={`mcp-${field}`}>
      {rows.map((r) => {
        const secret = needsEnvRef(r);
        const error = errors[`${field}:${r.id}`];
        const suggested = field === "env" ? r.key.trim() : envNameFor(r.key);
        return (
          <div key={r.id} className="flex flex-col gap-1" data-testid="mcp-kv-row">
            <div className="flex items-center gap-1.5">
              <Input
                aria-label={field === "env" ? "Variable name" : "Header name"}
                data-testid="mcp-kv-key"
                className="h-8 w-[34%] font-mono text-[12.5px]"
                placeholder={keyPlaceholder}
                value={r.key}
                onChange={(e) => set(r.id, { key: e.target.value })}
                spellCheck={false}
                autoComplete="off"
              />
              <NativeSelect
                aria-label="Value source"
                data-testid="mcp-kv-mode"
                className="h-8 w-auto shrink-0 pr-7 text-[12.5px]"
                value={r.mode}
                onChange={(e) => set(r.id, { mode: e.target.value as KvRow["mode"], value: e.target.value === "env" && !r.value ? suggested : r.value })}
              >
                <option value="value">value</option>
                <option value="env">from env var</option>
              </NativeSelect>
              <Input
                aria-label={r.mode === "env" ? "Environment variable" : "Value"}
                data-testid="mcp-kv-value"
                className="h-8 min-w-0 flex-1 font-mono text-[12.5px]"
                placeholder={r.mode === "env" ? "HOST_ENV_VAR" : "value"}
                value={r.value}
                onChange={(e) => set(r.id, { value: e.target.value })}
                aria-invalid={(showErrors && error) || secret ? true : undefined}
                spellCheck={false}
                autoComplete="off"
              />
              <Button variant="subtle" size="icon-sm" className="size-8" aria-label="Remove row" onClick={() => onChange(rows.filter((x) => x.id !== r.id))}>
                <XIcon />
              </Button>
            </div>
            {secret ? (
              <FieldError className="flex flex-wrap items-center gap-x-2">
                {r.key.trim()} looks like a secret: Seam never stores secret values. Read it from a host environment variable.
                <button
                  type="button"
                  data-testid="mcp-kv-use-env"
                  className="cursor-pointer font-medium text-primary underline-offset-2 hover:underline"
                  onClick={() => set(r.id, { mode: "env", value: suggested })}
                >
                  Use ${suggested}
                </button>
              </FieldError>
            ) : (
              showErrors && error && <FieldError>{error}</FieldError>
            )}
          </div>
        );
      })}
      <div>
        <Button variant="outline" size="xs" data-testid={`mcp-add-${field}`} onClick={() => onChange([...rows, newRow()])}>
          <PlusIcon /> {field === "env" ? "Add variable" : "Add header"}
        </Button>
      </div>
    </div>
  );
}
