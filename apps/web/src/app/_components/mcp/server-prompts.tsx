"use client";
import type { McpPromptInfo, McpPromptResult, McpServerView } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { PlayIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { McpResultBlocks } from "../chat/mcp-result";
import { promptCommandLine, promptFields } from "./prompt-fields";
import { SchemaFields, withoutKey } from "./schema-fields";
import { unavailableReason, useRefetchOnRevision } from "./server-resources";
import { SessionPicker } from "./session-picker";

/** The Prompts tab (MCP-9): each prompt with its arguments form, a preview, and "Run in session…". */
export function ServerPrompts({ server }: { server: McpServerView }) {
  const trpc = useTRPC();
  const reason = unavailableReason(server, "prompts");
  const prompts = useQuery({ ...trpc.mcp.prompts.queryOptions({ name: server.config.name }), enabled: reason === null });
  useRefetchOnRevision(server, [trpc.mcp.prompts.pathKey()]);
  if (reason) return <p data-testid="mcp-prompts-unavailable" className="text-[13px] text-muted-foreground">{reason}</p>;
  if (prompts.isPending) return <p className="text-[13px] text-muted-foreground">Loading prompts…</p>;
  if (prompts.error) return <p role="alert" className="text-[13px] text-destructive">Could not list the prompts: {prompts.error.message}</p>;
  if (prompts.data.length === 0) return <p className="text-[13px] text-muted-foreground">The server lists no prompts.</p>;
  return (
    <ul className="flex flex-col gap-2">
      {prompts.data.map((p) => <PromptRow key={p.name} server={server.config.name} prompt={p} />)}
    </ul>
  );
}

function PromptRow({ server, prompt }: { server: string; prompt: McpPromptInfo }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [picking, setPicking] = useState<string | null>(null);
  const preview = useMutation(trpc.mcp.getPrompt.mutationOptions());
  const send = useMutation(trpc.session.send.mutationOptions());
  const fields = promptFields(prompt);

  const checked = () => {
    const r = promptCommandLine(server, prompt, values);
    setErrors(r.ok ? {} : r.errors);
    return r.ok ? r.text : null;
  };
  return (
    <li data-testid="mcp-prompt" data-prompt={prompt.name} className="flex flex-col gap-2 rounded-md border bg-background p-3">
      <div className="flex flex-col">
        <span className="text-[13px] font-medium">{prompt.title ?? prompt.name} <span className="font-mono text-[11.5px] font-normal text-muted-foreground">/mcp__{server}__{prompt.name}</span></span>
        {prompt.description && <span className="text-[12px] text-muted-foreground">{prompt.description}</span>}
      </div>
      {fields.length > 0 && <SchemaFields idPrefix={`prompt-${prompt.name}`} fields={fields} values={values} errors={errors} onChange={(k, v) => { setValues((o) => ({ ...o, [k]: v })); setErrors((e) => withoutKey(e, k)); }} />}
      <div className="flex gap-2">
        <Button size="sm" variant="secondary" data-testid="mcp-prompt-preview" disabled={preview.isPending} onClick={() => {
          if (!checked()) return;
          preview.mutate({ name: server, prompt: prompt.name, arguments: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== "")) });
        }}>
          {preview.isPending ? "Getting…" : "Preview"}
        </Button>
        <Button size="sm" data-testid="mcp-prompt-run" onClick={() => { const text = checked(); if (text) setPicking(text); }}>
          <PlayIcon /> Run in session…
        </Button>
      </div>
      {preview.error && <p role="alert" className="text-[12.5px] text-destructive">{preview.error.message}</p>}
      {send.error && <p role="alert" className="text-[12.5px] text-destructive">Could not run it: {send.error.message}</p>}
      {preview.data && <PromptMessages result={preview.data} />}
      <SessionPicker
        open={picking !== null}
        onOpenChange={(open) => !open && setPicking(null)}
        title={`Run ${prompt.name} in a session`}
        description="The prompt's messages are sent as your next message in the session you choose."
        onPick={(sessionId) => {
          const text = picking;
          setPicking(null);
          if (text) send.mutate({ sessionId, text }, { onSuccess: () => router.push(`/s/${sessionId}`) });
        }}
      />
    </li>
  );
}

/** A prompt's messages, each with its role, the content rendered like a tool result. */
export function PromptMessages({ result }: { result: Pick<McpPromptResult, "messages"> | { messages: { role: string; content?: unknown }[] } }) {
  return (
    <div data-testid="mcp-prompt-messages" className="flex flex-col gap-2">
      {result.messages.map((m, i) => (
        <div key={i} className="flex flex-col gap-1">
          <span className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{m.role}</span>
          <McpResultBlocks canonical={{ type: "mcp", content: [m.content] }} />
        </div>
      ))}
    </div>
  );
}
