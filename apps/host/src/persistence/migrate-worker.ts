/**
 * Runs `deployMigrations` in a worker thread (`deployIsolated` in migrate.ts): the WASM schema engine keeps
 * ~50 MB once instantiated, and only ending its thread gives that back. Posts `{ applied }` or the HostError's
 * code, message and data.
 */
import { parentPort, workerData } from "node:worker_threads";
import { HostError, messageOf } from "../core/errors.js";
import { deployMigrations, type MigrateOptions } from "./migrate.js";

try {
  const { applied } = await deployMigrations(workerData as MigrateOptions);
  parentPort!.postMessage({ ok: true, applied });
} catch (error) {
  const e = error instanceof HostError ? error : new HostError("internal:db", `migration failed: ${messageOf(error)}`);
  parentPort!.postMessage({ ok: false, code: e.code, message: e.message, data: e.data ? JSON.parse(JSON.stringify(e.data)) : undefined });
}
