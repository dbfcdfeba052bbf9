import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { readSecretsFile } from "../../llm/secrets.js";

/**
 * What Seam keeps for one server's OAuth (MCP-11), inside the host's 0600 secrets file and nowhere else:
 * the tokens, the registered client and the PKCE verifier of the sign-in in progress. Bound to the
 * server's URL: read back for another URL it is treated as absent (a changed URL invalidates it).
 */
export const OAuthRecord = z.object({
  url: z.string(),
  /** The OAuth token response as the SDK saved it (carries `issuer`). */
  tokens: z.record(z.string(), z.unknown()).optional(),
  /** Epoch ms when `tokens` were saved, and when the access token expires (from `expires_in`). */
  savedAt: z.number().optional(),
  expiresAt: z.number().nullable().optional(),
  /** The client registration (dynamic, metadata document) as the SDK saved it (carries `issuer`). */
  client: z.record(z.string(), z.unknown()).optional(),
  verifier: z.string().optional(),
});
export type OAuthRecord = z.infer<typeof OAuthRecord>;

export interface OAuthSecretStore {
  readonly file: string;
  /** The record for `name` if it was saved for `url`; undefined otherwise (or when unreadable). */
  get(name: string, url: string): OAuthRecord | undefined;
  /** Merges `patch` into the record for `name` at `url` (a record for another URL is replaced). */
  update(name: string, url: string, patch: Partial<Omit<OAuthRecord, "url">>): void;
  /** Removes fields of the record (`undefined` deletes the record). */
  clear(name: string, fields?: (keyof Omit<OAuthRecord, "url">)[]): void;
}

/** The secrets-file key of a server's record; not a valid env var name, so it never shadows one. */
export const recordKey = (name: string) => `mcp-oauth:${name}`;

/**
 * The records live as JSON strings under `mcp-oauth:<server>` in `$SEAM_HOME/secrets.json`, next to the
 * user's own keys, which are kept untouched. Writes are atomic (temp file 0600, rename) and synchronous,
 * so two writes in this process never interleave. Nothing here logs a value.
 */
export function createOAuthSecretStore(file: string): OAuthSecretStore {
  // Every MCP request asks for the token: the parsed file is reused while its inode, size, mtime and mode are unchanged.
  let cache: { stamp: string; all: Record<string, string> } | undefined;
  const stampOf = () => {
    try {
      const st = statSync(file);
      return `${st.ino}:${st.size}:${st.mtimeMs}:${st.mode}`;
    } catch {
      return "absent";
    }
  };
  const readAll = (): Record<string, string> => {
    const stamp = stampOf();
    if (cache?.stamp === stamp) return { ...cache.all };
    const all = readSecretsFile(file) ?? {};
    cache = { stamp, all };
    return { ...all };
  };
  const writeAll = (all: Record<string, string>) => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(all, null, 2) + "\n", { mode: 0o600, flag: "wx" });
      chmodSync(tmp, 0o600);
      renameSync(tmp, file);
      cache = undefined;
    } finally {
      rmSync(tmp, { force: true });
    }
  };
  const parse = (raw: string | undefined): OAuthRecord | undefined => {
    if (raw === undefined) return undefined;
    try {
      const r = OAuthRecord.safeParse(JSON.parse(raw));
      return r.success ? r.data : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    file,
    get(name, url) {
      const record = parse(readAll()[recordKey(name)]);
      return record && record.url === url ? record : undefined;
    },
    update(name, url, patch) {
      const all = readAll();
      const old = parse(all[recordKey(name)]);
      const base: OAuthRecord = old && old.url === url ? old : { url };
      all[recordKey(name)] = JSON.stringify({ ...base, ...patch, url });
      writeAll(all);
    },
    clear(name, fields) {
      const all = readAll();
      const key = recordKey(name);
      if (!(key in all)) return;
      if (!fields) {
        delete all[key];
      } else {
        const old = parse(all[key]);
        if (!old) delete all[key];
        else {
          for (const f of fields) delete old[f];
          all[key] = JSON.stringify(old);
        }
      }
      writeAll(all);
    },
  };
}
