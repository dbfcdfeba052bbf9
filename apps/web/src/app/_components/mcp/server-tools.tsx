"use client";
import type { McpServerView } from "@seam/shared";
import { approvalChoice, ServerApprovalSelect, ToolPolicyControls, unknownPolicyNames, useToolPolicy } from "./tool-policy";

/**
 * The Tools tab: public ↔ raw name, description, schema, enabled for the agent, approval, the server's default
 * approval, and the instructions the server gives the model. A failed server's tools are listed as unavailable (MCP-13).
 */
export function ServerTools({ server }: { server: McpServerView }) {
  const { tools } = server;
  const policy = useToolPolicy(server.config.name);
  const unavailable = server.status.state === "failed";
  const unknown = unknownPolicyNames(server);
  return (
    <div className="flex flex-col gap-4">
        <section>
          <div className="mb-1.5 flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-[13px] font-semibold">Tools {tools.length > 0 && <span className="font-normal text-muted-foreground">({tools.length})</span>}</h3>
            <ServerApprovalSelect value={server.config.approval} disabled={policy.busy} onChange={policy.changeDefault} />
          </div>
          {unavailable && tools.length > 0 && (
            <p data-testid="mcp-tools-unavailable" className="mb-1.5 text-[12.5px] text-muted-foreground">
              Unavailable: the server stopped after an error, so none of these tools is offered to the agent. Restart it to bring them back.
            </p>
          )}
          {unknown.length > 0 && (
            <p data-testid="mcp-unknown-tools" className="mb-1.5 text-[12.5px] text-warning">
              The settings name tools this server does not list (kept, in case it lists them later): <span className="font-mono">{unknown.join(", ")}</span>
            </p>
          )}
          {policy.error && <p className="mb-1.5 text-[12.5px] text-destructive">{policy.error.message}</p>}
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
                    <th className="px-3 py-1.5 font-medium whitespace-nowrap">Agent · approval</th>
                  </tr>
                </thead>
                <tbody>
                  {tools.map((t) => (
                    <tr
                      key={t.publicName}
                      data-testid="mcp-tool-row"
                      data-public-name={t.publicName}
                      data-enabled={t.enabled}
                      data-available={!unavailable && t.enabled}
                      className={`border-b align-top last:border-b-0 ${unavailable || !t.enabled ? "text-muted-foreground opacity-70" : ""}`}
                    >
                      <td className="px-3 py-2 font-mono text-[12px] font-medium whitespace-nowrap">
                        {t.publicName}
                        {!t.enabled && <div className="font-sans text-[11.5px] font-normal">disabled: hidden from the agent</div>}
                        {unavailable && t.enabled && <div className="font-sans text-[11.5px] font-normal">unavailable</div>}
                        {t.readOnly && <div className="font-sans text-[11.5px] font-normal text-muted-foreground">read-only</div>}
                      </td>
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
                      <td className="px-3 py-2">
                        <ToolPolicyControls
                          tool={t}
                          choice={approvalChoice(server, t.rawName)}
                          serverApproval={server.config.approval}
                          disabled={policy.busy}
                          onChange={(change) => policy.changeTool(t.rawName, change)}
                        />
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
    </div>
  );
}
