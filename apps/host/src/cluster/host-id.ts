import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The id of the host that owns data directory `home` (SCALE-2), in `<home>/host-id`: made once, then
 * the same across restarts, so a restarted host knows the leases its killed predecessor left as its own.
 * A missing or unreadable file gets a new id.
 */
export function hostIdOf(home: string): string {
  const file = join(home, "host-id");
  try {
    const id = readFileSync(file, "utf8").trim();
    if (UUID.test(id)) return id;
  } catch {
    // First start (or unreadable): make one.
  }
  const id = randomUUID();
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
