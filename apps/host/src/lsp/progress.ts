import type { MessageConnection } from "vscode-jsonrpc/node";
import { untilAborted } from "./workspace-queue.js";

/** The server's work-done progress as Seam sees it (LSP-8): tokens between create/begin and end. */
export interface ProgressState {
  /** Work-done tokens open now. */
  readonly open: number;
  /**
   * Resolves true once no token is open, false after `ms` (the tokens still open are then forgotten, so that a
   * server that never ends one delays one query, not all). Rejects when `signal` aborts.
   */
  quiet(ms: number, signal?: AbortSignal): Promise<boolean>;
}

/** A created token that has not begun within this long is taken as abandoned. */
const UNBEGUN_MS = 2_000;

type Token = string | number;
const isToken = (v: unknown): v is Token => typeof v === "string" || typeof v === "number";

/**
 * Answers `window/workDoneProgress/create` and follows `$/progress` begin/end (vscode-jsonrpc hands every
 * `$/progress` without a registered handler to `onUnhandledProgress`).
 */
export function trackProgress(connection: MessageConnection): ProgressState {
  const open = new Map<Token, NodeJS.Timeout | undefined>();
  let waiters: (() => void)[] = [];

  const end = (token: Token) => {
    clearTimeout(open.get(token));
    if (!open.delete(token) || open.size > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  connection.onRequest("window/workDoneProgress/create", (params: { token?: unknown } | undefined) => {
    const token = params?.token;
    if (isToken(token) && !open.has(token)) {
      const timer = setTimeout(() => end(token), UNBEGUN_MS);
      timer.unref();
      open.set(token, timer);
    }
    return null;
  });
  connection.onUnhandledProgress(({ token, value }) => {
    const kind = (value as { kind?: unknown } | undefined)?.kind;
    if (kind === "end") return end(token);
    if (kind !== "begin") return;
    clearTimeout(open.get(token));
    open.set(token, undefined);
  });

  return {
    get open() { return open.size; },
    async quiet(ms, signal) {
      if (open.size === 0) return true;
      let timer: NodeJS.Timeout | undefined;
      let resolveQuiet!: () => void;
      const quieted = new Promise<boolean>((resolve) => {
        resolveQuiet = () => resolve(true);
        waiters.push(resolveQuiet);
        timer = setTimeout(() => resolve(false), ms);
        timer.unref();
      });
      try {
        const ok = await untilAborted(quieted, signal);
        if (!ok) for (const token of [...open.keys()]) end(token);
        return ok;
      } finally {
        clearTimeout(timer);
        waiters = waiters.filter((w) => w !== resolveQuiet);
      }
    },
  };
}
