"use client";
import type { McpServerView } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { PlayIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/field";
import { NativeSelect, Textarea } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { McpResultBlocks } from "../chat/mcp-result";
import { SchemaFields, withoutKey } from "./schema-fields";
import { argsFrom, fieldsOf, initialValues } from "./schema-form";

/** The "Try a tool" tab (MCP-9): a form generated from the chosen tool's input schema, run by hand through the bridge. */
export function TryTool({ server }: { server: McpServerView }) {
  const { tools } = server;
  const [toolName, setToolName] = useState(tools[0]?.rawName ?? "");
  if (tools.length === 0) return <p className="text-[13px] text-muted-foreground">{server.status.state === "ready" ? "The server lists no tools." : `The server is not ready (${server.status.state}); its tools can be tried once it is ready.`}</p>;
  const tool = tools.find((t) => t.rawName === toolName) ?? tools[0]!;
  return (
    <div className="flex flex-col gap-3">
      <FormField id="mcp-try-tool" label="Tool">
        <NativeSelect id="mcp-try-tool" data-testid="mcp-try-tool-select" value={tool.rawName} onChange={(e) => setToolName(e.target.value)}>
          {tools.map((t) => <option key={t.rawName} value={t.rawName}>{t.rawName}{t.enabled ? "" : " (disabled for the agent)"}</option>)}
        </NativeSelect>
      </FormField>
      {/* Keyed by tool: a new tool starts a fresh form. */}
      <TryToolForm key={`${server.config.name}/${tool.rawName}`} server={server} rawName={tool.rawName} />
    </div>
  );
}

function TryToolForm({ server, rawName }: { server: McpServerView; rawName: string }) {
  const trpc = useTRPC();
  const tool = server.tools.find((t) => t.rawName === rawName)!;
  const fields = useMemo(() => fieldsOf(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState(() => initialValues(fields));
  const [raw, setRaw] = useState("{}");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useMutation(trpc.mcp.tryTool.mutationOptions());
  const ready = server.status.state === "ready";

  const submit = () => {
    let args: Record<string, unknown>;
    if (fields.length === 0) {
      try {
        const parsed: unknown = JSON.parse(raw || "{}");
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        args = parsed as Record<string, unknown>;
      } catch {
        return setErrors({ $args: "Enter the arguments as a JSON object, e.g. {\"key\": \"value\"}" });
      }
    } else {
      const r = argsFrom(fields, values);
      if (!r.ok) return setErrors(r.errors);
      args = r.args;
    }
    setErrors({});
    run.mutate({ name: server.config.name, tool: rawName, args });
  };

  return (
    <form data-testid="mcp-try-tool" className="flex flex-col gap-3" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      {tool.description && <p className="text-[12.5px] text-muted-foreground">{tool.description}</p>}
      {!tool.enabled && (
        <p data-testid="mcp-try-disabled-note" className="rounded-md bg-warning-soft px-2.5 py-1.5 text-[12.5px]">
          This tool is disabled for the agent: the model cannot call it, but you can still try it here.
        </p>
      )}
      {fields.length > 0 ? (
        <SchemaFields idPrefix={`try-${rawName}`} fields={fields} values={values} errors={errors} onChange={(k, v) => { setValues((o) => ({ ...o, [k]: v })); setErrors((e) => withoutKey(e, k)); }} />
      ) : (
        <FormField id="mcp-try-args" label="Arguments (JSON object)" error={errors.$args} errorTestId="mcp-field-error">
          <Textarea id="mcp-try-args" data-testid="mcp-try-args" rows={3} className="font-mono text-[12px]" value={raw} onChange={(e) => setRaw(e.target.value)} />
        </FormField>
      )}
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" data-testid="mcp-try-run" disabled={!ready || run.isPending}>
          <PlayIcon /> {run.isPending ? "Running…" : "Run"}
        </Button>
        {!ready && <span className="text-[12px] text-muted-foreground">The server is not ready ({server.status.state}); wait until it is ready.</span>}
      </div>
      {run.error && <p role="alert" data-testid="mcp-try-error" className="text-[12.5px] text-destructive">{run.error.message}</p>}
      {run.data && (
        <section data-testid="mcp-try-result" className="flex flex-col gap-1.5">
          <h4 className="text-[12px] font-medium">{run.data.error ? `Result: error [${run.data.error.code}]` : "Result"}</h4>
          <McpResultBlocks canonical={run.data.canonical} />
          <details className="text-[12px]">
            <summary className="cursor-pointer text-muted-foreground">What the model would see</summary>
            <pre className="scroll-thin mt-1 max-h-56 overflow-auto rounded-md border bg-background p-2 font-mono text-[12px] whitespace-pre-wrap">{run.data.rendered}</pre>
          </details>
        </section>
      )}
    </form>
  );
}
