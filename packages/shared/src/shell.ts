import { z } from "zod";

/**
 * The shell capability's wire shapes (SPEC §10, CODE-3/CODE-4): sandbox settings, the sandbox's
 * availability and the background jobs of a session.
 */

/**
 * `off`: commands run as the host's user with its whole filesystem. `workspace-write`: bubblewrap, the
 * filesystem read-only except the workspace and a private /tmp, the data directory hidden. `read-only`:
 * the same with the workspace read-only too.
 */
export const ShellSandboxMode = z.enum(["off", "workspace-write", "read-only"]);
export type ShellSandboxMode = z.infer<typeof ShellSandboxMode>;

/** Settings → Shell. Stored under the setting key `shell`. */
export const ShellSettings = z.strictObject({
  sandbox: ShellSandboxMode,
  /** Inside a sandbox: whether the command may use the network (off = its own empty network namespace, loopback too). */
  network: z.boolean().default(true),
});
export type ShellSettings = z.infer<typeof ShellSettings>;
export type ShellSettingsInput = z.input<typeof ShellSettings>;

/** Whether bubblewrap can run here, from a sandboxed `true` run at start and on demand. */
export const ShellSandboxAvailability = z.object({
  available: z.boolean(),
  /** Why not, in words, with what to do. */
  reason: z.string().nullable(),
  /** The bwrap binary that was tried. */
  path: z.string(),
  /** `bubblewrap 0.8.0`, when it answered. */
  version: z.string().nullable(),
  checkedAt: z.string(),
});
export type ShellSandboxAvailability = z.infer<typeof ShellSandboxAvailability>;

export const ShellSettingsView = z.object({
  settings: ShellSettings,
  /** `default`: nothing was saved and the value could not be stored either (it is stored at first start). */
  source: z.enum(["saved", "default"]),
  availability: ShellSandboxAvailability,
});
export type ShellSettingsView = z.infer<typeof ShellSettingsView>;

export const ShellJobState = z.enum(["running", "exited", "killed"]);
export type ShellJobState = z.infer<typeof ShellJobState>;

/** One background job (`bash` with `background: true`), for the session's job chips. */
export const ShellJobView = z.object({
  id: z.string(),
  sessionId: z.string(),
  command: z.string(),
  startedAt: z.string(),
  state: ShellJobState,
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type ShellJobView = z.infer<typeof ShellJobView>;

export const ShellSessionRef = z.object({ sessionId: z.string().min(1).max(200) });
export const ShellJobRef = z.object({ sessionId: z.string().min(1).max(200), jobId: z.string().min(1).max(100) });
export type ShellJobRef = z.infer<typeof ShellJobRef>;

/** The whole buffered output of a job (bounded; an elided middle is marked in the text). */
export const ShellJobOutput = z.object({ job: ShellJobView, output: z.string(), outputBytes: z.number().int(), truncated: z.boolean() });
export type ShellJobOutput = z.infer<typeof ShellJobOutput>;

/** Live topic `jobs`: one session's jobs, whole, after each change (the chat's job chips). */
export const ShellJobsChange = z.object({ sessionId: z.string(), jobs: z.array(ShellJobView) });
export type ShellJobsChange = z.infer<typeof ShellJobsChange>;
