import type {
  CapabilityRow, LspPreset, LspServerConfigInput, LspServerView, WebHealth, WebProbeInput, WebProbeResult, WebSettings, WebSettingsInput, SkillCompletion, SkillInspection, SkillSettings, SkillSettingsInput, SkillsWhereInput, ModelSettings, ProcessInfo, ModelStatus, SessionCallToolInput, SessionCreateInput, SessionDetail, SessionEvent,
  SessionInfo, SessionSendInput, ToolInfo,
  ExtensionsSnapshot, ExtensionVersionSource, ApprovalAnswerInput, ExtensionSettingsInput, ExtensionSettings,
} from "@seam/shared";
import type { McpService } from "./mcp/service.js";

/** What the tRPC layer may call: the capability services, nothing else (STYLE §5). */
export interface HostApi {
  sessions: {
    list(): Promise<SessionInfo[]>;
    create(input: SessionCreateInput): Promise<SessionInfo>;
    rename(id: string, title: string): Promise<SessionInfo>;
    remove(id: string): Promise<void>;
    detail(id: string): Promise<SessionDetail>;
    send(input: SessionSendInput): Promise<{ turnId: string }>;
    callTool(input: SessionCallToolInput): Promise<{ turnId: string }>;
    stop(id: string): Promise<{ stopped: boolean }>;
    events(id: string, signal: AbortSignal): AsyncIterable<SessionEvent>;
    /** Fires on any session list change (created, renamed, removed, running state). */
    listEvents(signal: AbortSignal): AsyncIterable<SessionInfo[]>;
  };
  tools: { list(sessionId?: string): Promise<ToolInfo[]> };
  settings: {
    model(): Promise<ModelStatus>;
    setModel(settings: ModelSettings): Promise<ModelStatus>;
  };
  capabilities: { list(): Promise<CapabilityRow[]> };
  processes: { list(): Promise<ProcessInfo[]> };
  /** MCP servers (MCP-10): saved configs with live state; every change is saved only once the host confirmed it. */
  mcp: Omit<McpService, "settled">;
  /** The web seam's settings and provider health (WEB-3, WEB-11). */
  web: {
    settings(): Promise<WebSettings>;
    setSettings(settings: WebSettingsInput): Promise<WebSettings>;
    health(): Promise<WebHealth>;
    /** One real request to a provider, recorded in its health. */
    probe(input: WebProbeInput): Promise<WebProbeResult>;
  };
  /** Skills (SKL-10): roots, candidates and diagnostics for a workspace; `/name` completions; custom roots. */
  skills: {
    inspect(where: SkillsWhereInput): Promise<SkillInspection>;
    completions(sessionId: string): Promise<SkillCompletion[]>;
    settings(): Promise<SkillSettings>;
    setSettings(settings: SkillSettingsInput): Promise<SkillSettings>;
  };
  /** Language servers (LSP-7): configured servers with their per-workspace processes; a refused change saves nothing. */
  lsp: {
    servers(): Promise<LspServerView[]>;
    presets(): Promise<LspPreset[]>;
    /** Refuses invalid fields (`bad_input:lsp`, field path first), extension conflicts (`conflict:lsp`) and an enabled server whose command does not resolve. */
    add(config: LspServerConfigInput): Promise<LspServerView>;
    /** Replaces server `id` (`config.id` may rename it); its processes stop and it activates anew. */
    update(input: { id: string; config: LspServerConfigInput }): Promise<LspServerView>;
    remove(input: { id: string }): Promise<void>;
    /** Restarts one workspace's process, or all of the server's; an inactive server is activated again first. */
    restart(input: { id: string; workspace?: string }): Promise<LspServerView>;
    /** Every server's view now, then after each burst of changes (processes starting, stopping, failing…). */
    events(signal: AbortSignal): AsyncIterable<LspServerView[]>;
  };
  /** Dynamic extensions (EXT-1..6): packages, runs, approvals, grants and the browser-half bridge. */
  extensions: {
    snapshot(): Promise<ExtensionsSnapshot>;
    /** The snapshot now, then after each burst of changes. */
    events(signal: AbortSignal): AsyncIterable<ExtensionsSnapshot>;
    /** not_found:extensions when the package or version is unknown. */
    source(input: { packageId: string; version: number }): Promise<ExtensionVersionSource>;
    /** First answer wins; a later one gets conflict:extensions (`already_answered`), an unknown id not_found:extensions. */
    answer(input: ApprovalAnswerInput): Promise<void>;
    revokeGrant(input: { packageId: string }): Promise<void>;
    stop(input: { runId: string }): Promise<void>;
    /** A browser half's call to its host half's `api.handle(method, …)`. */
    call(input: { runId: string; method: string; params: unknown }): Promise<unknown>;
    /**
     * What host halves `api.send` to their browser halves, live from now on: of one run (ending when it
     * ends), or of every run when `runId` is omitted (one stream per page serves all its frames).
     */
    bridge(signal: AbortSignal, runId?: string): AsyncIterable<{ runId: string; message: unknown }>;
    /** A page reports rendering the run's browser half (EXT-4). */
    reportBrowser(input: { runId: string; ok: boolean; message?: string }): Promise<void>;
    setSettings(input: ExtensionSettingsInput): Promise<ExtensionSettings>;
  };
  info(): { version: string; pid: number; home: string; startedAt: string };
}
