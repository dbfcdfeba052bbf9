/**
 * Start-up breakdown (#17): phases with their milliseconds, printed to stderr by `main.ts` when
 * `SEAM_TRACE_STARTUP=1`. Recording costs a `performance.now()` per phase, so the phases are always
 * recorded; only the print depends on the variable. Times are since the process started
 * (`performance.timeOrigin`), so the first phase (`imports`) includes Node's own bootstrap.
 */

export interface StartupPhase { name: string; ms: number; at: number }

export interface StartupTrace {
  /** Records the time since the previous mark (or the process start) as phase `name`. */
  mark(name: string): void;
  /** Runs `fn` and records its duration as phase `name` (the time before it goes to `mark`'s previous phase). */
  phase<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  phases(): StartupPhase[];
  /** One line per phase: `name  ms  (at ms since start)`. */
  format(): string;
}

export function createStartupTrace(now: () => number = () => performance.now()): StartupTrace {
  const list: StartupPhase[] = [];
  let last = 0;
  const record = (name: string, from: number, to: number) => {
    list.push({ name, ms: to - from, at: to });
    last = to;
  };
  return {
    mark(name) {
      record(name, last, now());
    },
    async phase(name, fn) {
      const t0 = now();
      try {
        return await fn();
      } finally {
        record(name, t0, now());
      }
    },
    phases: () => [...list],
    format() {
      const width = Math.max(...list.map((p) => p.name.length), 5);
      const lines = list.map((p) => `[startup] ${p.name.padEnd(width)} ${p.ms.toFixed(1).padStart(8)} ms  (at ${p.at.toFixed(1)} ms)`);
      return lines.join("\n");
    },
  };
}

/** The process's trace: `main.ts` marks the imports and the listen, `createHost` the database and each capability. */
export const startupTrace: StartupTrace = createStartupTrace();

/** True when `SEAM_TRACE_STARTUP` asks for the breakdown. */
export const traceStartupWanted = (env: NodeJS.ProcessEnv): boolean => env.SEAM_TRACE_STARTUP === "1" || env.SEAM_TRACE_STARTUP === "true";
