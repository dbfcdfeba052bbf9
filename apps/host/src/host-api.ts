import type {
  CapabilityRow, ModelSettings, ProcessInfo, ModelStatus, SessionCallToolInput, SessionCreateInput, SessionDetail, SessionEvent,
  SessionInfo, SessionSendInput, ToolInfo,
} from "@seam/shared";

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
  info(): { version: string; pid: number; home: string; startedAt: string };
}
