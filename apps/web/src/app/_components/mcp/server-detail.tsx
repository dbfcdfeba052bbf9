"use client";
import type { McpServerView } from "@seam/shared";
import { CopyButton } from "@/components/ui/copy-button";

/** Tools (public ↔ raw name, description, schema), instructions and the stderr tail of one server. */
export function ServerDetail({ server }: { server: McpServerView }) {
  const { tools } = server;
  return (
    <div data-testid="mcp-server-detail" className="flex flex-col gap-4 border-t bg-code px-4 py-4">
      <div className="flex flex-wrap gap-x-6 gap-y-1 text-[12px] text-muted-foreground">
        <span>
          Server: <span className="font-mono text-foreground/85">{server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : "—"}</span>
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

      <section>
        <h3 className="mb-1.5 text-[13px] font-semibold">Tools {tools.length > 0 && <span className="font-normal text-muted-foreground">({tools.length})</span>}</h3>
        {tools.length === 0 ? (
          <p className="text-[12.5px] text-muted-foreground">
            {server.status.state === "ready" ? "The server lists no tools." : "No tools yet: they appear once the server is connected and has listed them."}
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border bg-card">
            <table data-testid="mcp-tools-table" className="w-full border-collapse text-[12.5px]">
              <thead>
                <tr className="border-b bg-muted/50 text-left text-[11.5px] text-muted-foreground">
                  <th className="px-3 py-1.5 font-medium whitespace-nowrap">Public name (what the agent sees)</th>
                  <th className="px-3 py-1.5 font-medium">Raw name</th>
                  <th className="px-3 py-1.5 font-medium">Description</th>
                </tr>
              </thead>
              <tbody>
                {tools.map((t) => (
                  <tr key={t.publicName} data-testid="mcp-tool-row" data-public-name={t.publicName} className="border-b align-top last:border-b-0">
                    <td className="px-3 py-2 font-mono text-[12px] font-medium whitespace-nowrap">{t.publicName}</td>
                    <td className="px-3 py-2 font-mono text-[12px] text-muted-foreground whitespace-nowrap">{t.rawName}</td>
                    <td className="px-3 py-2">
                      <div className="line-clamp-3 leading-relaxed text-foreground/85">{t.description || <span className="text-muted-foreground">—</span>}</div>
                      <details className="mt-1">
                        <summary className="cursor-pointer text-[11.5px] text-muted-foreground select-none">input schema{t.outputSchema ? " · output schema" : ""}</summary>
                        <pre className="scroll-thin mt-1 max-h-64 overflow-auto rounded-md border bg-background p-2 font-mono text-[11.5px] leading-[1.5]">
                          {JSON.stringify(t.inputSchema, null, 2)}
                          {t.outputSchema ? `\n\n// output\n${JSON.stringify(t.outputSchema, null, 2)}` : ""}
                        </pre>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {server.instructions && (
        <section>
          <h3 className="mb-1.5 text-[13px] font-semibold">Instructions</h3>
          <p className="text-[12px] text-muted-foreground">What the server tells the model about itself.</p>
          <pre data-testid="mcp-instructions" className="scroll-thin mt-1 max-h-48 overflow-auto rounded-md border bg-background p-2.5 text-[12.5px] leading-relaxed whitespace-pre-wrap">
            {server.instructions}
          </pre>
        </section>
      )}

      <section>
        <div className="mb-1.5 flex items-center justify-between">
          <h3 className="text-[13px] font-semibold">stderr</h3>
          {server.stderrTail && <CopyButton text={server.stderrTail} />}
        </div>
        <pre data-testid="mcp-stderr" className="scroll-thin max-h-56 overflow-auto rounded-md border bg-background p-2.5 font-mono text-[12px] leading-[1.5] whitespace-pre-wrap">
          {server.stderrTail || (server.config.transport.type === "http" ? "HTTP servers have no stderr." : "Nothing written to stderr.")}
        </pre>
      </section>
    </div>
  );
}
