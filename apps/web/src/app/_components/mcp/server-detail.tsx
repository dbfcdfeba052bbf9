"use client";
import type { McpServerView } from "@seam/shared";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ServerTools } from "./server-tools";
import { ServerLogs } from "./server-logs";
import { ServerPrompts } from "./server-prompts";
import { ServerResources } from "./server-resources";
import { TryTool } from "./try-tool";
import { ServerAuthorization } from "./server-authorization";

/**
 * One server's detail: what it is (info, generation, timeouts, last error), then a tab per surface — tools (with
 * policy and instructions) and the stderr tail. Each tab is its own component; a new surface adds one trigger and
 * one content here.
 */
export function ServerDetail({ server }: { server: McpServerView }) {
  const { tools } = server;
  return (
    <div data-testid="mcp-server-detail" className="flex flex-col gap-3 border-t bg-code px-4 py-4">
      <div className="flex flex-wrap gap-x-6 gap-y-1 text-[12px] text-muted-foreground">
        <span>
          Server: <span className="font-mono text-foreground/85">{server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : "—"}</span>
        </span>
        <span data-testid="mcp-protocol-version">
          Protocol <span className="font-mono text-foreground/85">{server.serverInfo?.protocolVersion ?? "—"}</span>
        </span>
        <span>
          Generation <span className="font-mono text-foreground/85">{server.generation}</span>
          {tools.length > 0 && !server.toolsRegistered && " · tools not offered to the agent right now"}
        </span>
        <span>
          Timeouts: startup {server.config.startupTimeoutMs / 1000} s, call {server.config.callTimeoutMs / 1000} s
        </span>
      </div>

      {(server.status.state === "retrying" || server.status.state === "failed") && (
        <p data-testid="mcp-last-error" className="rounded-lg bg-destructive-soft px-3 py-2 text-[12.5px] leading-relaxed text-destructive">
          <span className="font-medium">{server.status.state === "failed" ? "Stopped after an error" : "Last error"}:</span>{" "}
          <span className="font-mono text-[12px]">{server.status.state === "failed" ? server.status.error : server.status.lastError}</span>
          {server.status.state === "failed" && <span className="text-foreground/80"> — fix the config if needed, then restart the server.</span>}
        </p>
      )}

      {server.status.state === "needs_authorization" && (
        <p data-testid="mcp-needs-authorization" className="rounded-lg bg-warning-soft px-3 py-2 text-[12.5px] leading-relaxed text-warning">
          <span className="font-medium">Needs authorization:</span> <span className="text-foreground/85">{server.status.reason}</span>
        </p>
      )}

      <Tabs defaultValue={server.status.state === "needs_authorization" ? "authorization" : "tools"} className="flex flex-col gap-3">
        <TabsList data-testid="mcp-detail-tabs" className="self-start">
          <TabsTrigger value="tools">Tools{tools.length > 0 ? ` (${tools.length})` : ""}</TabsTrigger>
          <TabsTrigger value="stderr">stderr</TabsTrigger>
          <TabsTrigger value="resources" data-testid="mcp-tab-resources">Resources</TabsTrigger>
          <TabsTrigger value="prompts" data-testid="mcp-tab-prompts">Prompts</TabsTrigger>
          <TabsTrigger value="try" data-testid="mcp-tab-try">Try a tool</TabsTrigger>
          <TabsTrigger value="logs" data-testid="mcp-logs-tab">Logs</TabsTrigger>
          {server.config.transport.type === "http" && <TabsTrigger value="authorization" data-testid="mcp-tab-authorization">Authorization</TabsTrigger>}
        </TabsList>
        <TabsContent value="tools">
          <ServerTools server={server} />
        </TabsContent>
        <TabsContent value="stderr">
            <section>
              <div className="mb-1.5 flex items-center justify-between">
                <h3 className="text-[13px] font-semibold">stderr</h3>
                {server.stderrTail && <CopyButton text={server.stderrTail} />}
              </div>
              <pre data-testid="mcp-stderr" className="scroll-thin max-h-56 overflow-auto rounded-md border bg-background p-2.5 font-mono text-[12px] leading-[1.5] whitespace-pre-wrap">
                {server.stderrTail || (server.config.transport.type === "http" ? "HTTP servers have no stderr." : "Nothing written to stderr.")}
              </pre>
            </section>
        </TabsContent>
        <TabsContent value="resources">
          <ServerResources server={server} />
        </TabsContent>
        <TabsContent value="prompts">
          <ServerPrompts server={server} />
        </TabsContent>
        <TabsContent value="try">
          <TryTool server={server} />
        </TabsContent>
        <TabsContent value="logs">
          <ServerLogs name={server.config.name} />
        </TabsContent>
        {server.config.transport.type === "http" && (
          <TabsContent value="authorization">
            <ServerAuthorization server={server} />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}
