"use client";
import type { McpApproval, McpServerView, McpToolInfo } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { Switch } from "radix-ui";
import { NativeSelect } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { useInvalidateMcp } from "./use-mcp";

export type ToolApprovalChoice = "inherit" | McpApproval;
export type ToolPolicyChange = { enabled: boolean } | { approval: ToolApprovalChoice };

const APPROVAL_WORDS: Record<McpApproval, string> = { auto: "Auto (the session's mode decides)", ask: "Ask every time" };

/**
 * Names in the server's enabledTools / disabledTools / per-tool approvals that the server does not list (MCP-8):
 * kept in the config, flagged in the UI. Empty while the server has listed no tools.
 */
export function unknownPolicyNames(server: Pick<McpServerView, "config" | "tools">): string[] {
  if (server.tools.length === 0) return [];
  const listed = new Set(server.tools.map((t) => t.rawName));
  const { enabledTools, disabledTools, toolApproval } = server.config;
  const named = [...(enabledTools ?? []), ...disabledTools, ...Object.keys(toolApproval)];
  return [...new Set(named)].filter((n) => !listed.has(n)).sort();
}

/** The approval choice the select shows for a tool: its override, else "inherit". */
export const approvalChoice = (server: Pick<McpServerView, "config">, rawName: string): ToolApprovalChoice =>
  Object.hasOwn(server.config.toolApproval, rawName) ? server.config.toolApproval[rawName]! : "inherit";

/** One tool's policy: given to the model or not, and its approval (inherit / auto / ask). Pure: changes go to `onChange`. */
export function ToolPolicyControls({ tool, choice, serverApproval, disabled, onChange }: {
  tool: Pick<McpToolInfo, "rawName" | "enabled">;
  choice: ToolApprovalChoice;
  serverApproval: McpApproval;
  disabled?: boolean;
  onChange(change: ToolPolicyChange): void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Switch.Root
        data-testid="mcp-tool-enabled"
        aria-label={tool.enabled ? `Hide ${tool.rawName} from the agent` : `Give ${tool.rawName} to the agent`}
        checked={tool.enabled}
        disabled={disabled}
        onCheckedChange={(enabled) => onChange({ enabled })}
        className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors disabled:cursor-default disabled:opacity-50 aria-checked:bg-primary"
      >
        <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-[18px]" />
      </Switch.Root>
      <NativeSelect
        data-testid="mcp-tool-approval"
        aria-label={`Approval for ${tool.rawName}`}
        value={choice}
        disabled={disabled}
        onChange={(e) => onChange({ approval: e.target.value as ToolApprovalChoice })}
        className="h-7 w-auto py-0 text-[12px]"
      >
        <option value="inherit">Server default ({serverApproval})</option>
        <option value="auto">Auto</option>
        <option value="ask">Ask</option>
      </NativeSelect>
    </div>
  );
}

/** The server's default approval for its tools. Pure: changes go to `onChange`. */
export function ServerApprovalSelect({ value, disabled, onChange }: { value: McpApproval; disabled?: boolean; onChange(approval: McpApproval): void }) {
  return (
    <label className="flex items-center gap-2 text-[12.5px]">
      <span className="text-muted-foreground">Default approval</span>
      <NativeSelect
        data-testid="mcp-server-approval"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as McpApproval)}
        className="h-7 w-auto py-0 text-[12px]"
      >
        {(["auto", "ask"] as const).map((a) => <option key={a} value={a}>{APPROVAL_WORDS[a]}</option>)}
      </NativeSelect>
    </label>
  );
}

/** The mutations behind the controls; the live `mcp` topic brings the new view. */
export function useToolPolicy(name: string) {
  const trpc = useTRPC();
  const invalidate = useInvalidateMcp();
  const setTool = useMutation(trpc.mcp.setTool.mutationOptions({ onSettled: invalidate }));
  const setApproval = useMutation(trpc.mcp.setApproval.mutationOptions({ onSettled: invalidate }));
  return {
    changeTool: (tool: string, change: ToolPolicyChange) => setTool.mutate({ name, tool, ...change }),
    changeDefault: (approval: McpApproval) => setApproval.mutate({ name, approval }),
    busy: setTool.isPending || setApproval.isPending,
    error: setTool.error ?? setApproval.error,
  };
}
