/** The host's own facts, answered by `health` (no capability involved). */
export interface HostInfo { version: string; pid: number; home: string; startedAt: string }
