/**
 * The bubblewrap sandbox (CODE-4): the bwrap arguments for a mode, and the probe that decides whether
 * bwrap can run here at all.
 */
import { realpathSync } from "node:fs";
import { delimiter, join, sep } from "node:path";
import type { ShellSandboxAvailability, ShellSandboxMode } from "@seam/shared";
import { messageOf } from "../core/errors.js";
import { isDirectory, isExecutable, spawnChild } from "../core/process.js";
import { isInside } from "../workspace/contain.js";
import type { Scope } from "../core/scope.js";
import { shellError } from "./errors.js";

export type SandboxMode = Exclude<ShellSandboxMode, "off">;

export interface SandboxPaths {
  /** Canonical workspace of the session. */
  workspace: string;
  /** The host's data directory, hidden from the command. */
  home: string;
  /** The secrets file, hidden from the command (normally `<home>/secrets.json`). */
  secretsFile: string;
}

const PROBE_TIMEOUT_MS = 10_000;

/** The bwrap executable: the first `bwrap` on PATH, else Debian's path (which the probe then reports missing). */
export function findBwrap(env: NodeJS.ProcessEnv = process.env): string {
  for (const dir of (env.PATH ?? "/usr/bin:/bin").split(delimiter)) {
    const path = join(dir || ".", "bwrap");
    if (isExecutable(path)) return path;
  }
  return "/usr/bin/bwrap";
}

/**
 * Everything bwrap needs before `--`: the root read-only, a fresh /dev, /proc and /tmp, the data
 * directory under an empty tmpfs, the secrets file under /dev/null, the workspace bound writable
 * (`workspace-write`) or read-only, a new pid namespace, and no network unless allowed.
 */
export function sandboxArgs(mode: SandboxMode, network: boolean, paths: SandboxPaths): string[] {
  const workspace = canonical(paths.workspace) ?? paths.workspace;
  const home = canonical(paths.home);
  if (home !== undefined && home === workspace) {
    throw shellError("bad_input", "workspace_is_data_dir", `The session's workspace ${workspace} is Seam's data directory; a sandboxed command there could read the database and secrets. Use another folder as the workspace, or set the sandbox to off in Settings → Shell.`);
  }
  // A mount hides what an earlier one put below its path, so parents go first (a workspace inside the
  // data directory is bound after the tmpfs that hides the rest of it; a data directory inside the
  // workspace is hidden after the workspace is bound).
  const mounts: { path: string; args: string[] }[] = [{ path: "/tmp", args: ["--tmpfs", "/tmp"] }];
  if (home !== undefined && isDirectory(home)) mounts.push({ path: home, args: ["--tmpfs", home] });
  const secrets = canonical(paths.secretsFile);
  if (secrets !== undefined && !(home !== undefined && isInside(home, secrets))) mounts.push({ path: secrets, args: ["--ro-bind", "/dev/null", secrets] });
  mounts.push({ path: workspace, args: [mode === "workspace-write" ? "--bind" : "--ro-bind", workspace, workspace] });
  const depth = (p: string) => p.split(sep).filter(Boolean).length;
  mounts.sort((a, b) => depth(a.path) - depth(b.path));
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    ...mounts.flatMap((m) => m.args),
    "--unshare-pid",
    ...(network ? [] : ["--unshare-net"]),
    "--die-with-parent",
    "--chdir", workspace,
    "--",
  ];
}

/** Runs a sandboxed `true` (network namespace included) and `bwrap --version`; never throws. */
export async function probeSandbox(scope: Scope, bwrap: string): Promise<ShellSandboxAvailability> {
  const checkedAt = () => new Date().toISOString();
  if (!isExecutable(bwrap)) {
    return { available: false, path: bwrap, version: null, checkedAt: checkedAt(), reason: `bwrap is not installed (nothing executable at ${bwrap}) — install the Debian package bubblewrap (apt-get install -y bubblewrap).` };
  }
  const version = await runQuick(scope, bwrap, ["--version"]);
  const probe = await runQuick(scope, bwrap, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-pid", "--unshare-net", "--die-with-parent", "--", "true"]);
  const versionText = version.ok ? version.output.trim().split("\n")[0] || null : null;
  if (probe.ok) return { available: true, reason: null, path: bwrap, version: versionText, checkedAt: checkedAt() };
  return { available: false, path: bwrap, version: versionText, checkedAt: checkedAt(), reason: `bwrap cannot create namespaces here: ${probe.output.trim() || probe.failure}` };
}

/** A short process with its output (stdout and stderr) and a deadline. */
async function runQuick(parent: Scope, command: string, args: string[]): Promise<{ ok: boolean; output: string; failure: string }> {
  const scope = parent.child(`probe:${command}`);
  try {
    const child = spawnChild(scope, { label: "bwrap-probe", command, args });
    child.stdin.end();
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const timer = setTimeout(() => void child.stop(), PROBE_TIMEOUT_MS);
    const exit = await child.exited.finally(() => clearTimeout(timer));
    const text = `${output}${child.stderrTail()}`.slice(0, 2_000);
    const failure = exit.signal ? `it was killed by ${exit.signal}` : `it exited with code ${exit.code}`;
    return { ok: exit.code === 0, output: text, failure };
  } catch (error) {
    return { ok: false, output: "", failure: messageOf(error) };
  } finally {
    await scope.dispose().catch(() => {});
  }
}

function canonical(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
