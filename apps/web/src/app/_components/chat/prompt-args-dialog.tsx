"use client";
import type { McpPromptCommand } from "@seam/shared";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { promptCommandLine, promptFields } from "../mcp/prompt-fields";
import { SchemaFields, withoutKey } from "../mcp/schema-fields";

/** The arguments of an MCP prompt chosen from the `/` menu (MCP-9): required ones marked; Run sends the command line. */
export function PromptArgsDialog({ command, onCancel, onRun }: { command: McpPromptCommand | null; onCancel: () => void; onRun: (text: string) => void }) {
  return (
    <Dialog open={command !== null} onOpenChange={(open) => !open && onCancel()}>
      <DialogContent data-testid="mcp-prompt-args">
        {command && <PromptArgsForm key={command.command} command={command} onRun={onRun} onCancel={onCancel} />}
      </DialogContent>
    </Dialog>
  );
}

function PromptArgsForm({ command, onRun, onCancel }: { command: McpPromptCommand; onRun: (text: string) => void; onCancel: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { prompt, server } = command;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const r = promptCommandLine(server, prompt, values);
        if (!r.ok) return setErrors(r.errors);
        onRun(r.text);
      }}
    >
      <DialogHeader>
        <DialogTitle>{prompt.title ?? prompt.name}</DialogTitle>
        {prompt.description && <DialogDescription>{prompt.description}</DialogDescription>}
        <DialogDescription>A prompt of the MCP server “{server}”: its messages are sent as your message. * marks a required argument.</DialogDescription>
      </DialogHeader>
      <SchemaFields idPrefix={`slash-${command.command}`} fields={promptFields(prompt)} values={values} errors={errors} onChange={(k, v) => { setValues((o) => ({ ...o, [k]: v })); setErrors((e) => withoutKey(e, k)); }} />
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onCancel}>Cancel</Button>
        <Button type="submit" data-testid="mcp-prompt-args-run">Run prompt</Button>
      </DialogFooter>
    </form>
  );
}
