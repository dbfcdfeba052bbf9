import { formatIssues, McpServerConfig } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { Database } from "../persistence/db.js";
import { createLog } from "../core/log.js";

/**
 * Saved MCP server configs (MCP-10). A row holds the validated McpServerConfig as JSON; by the
 * shared schema's construction its secrets are env-var references only (SEC-2). Every call goes
 * through `db.exclusive`, the store's gate (see persistence/README.md).
 */
export interface McpStore {
  /** Sorted by name. Rows that no longer parse are reported through `onCorrupt` and left out. */
  list(): Promise<McpServerConfig[]>;
  get(name: string): Promise<McpServerConfig | null>;
  /** conflict:mcp when the name is taken. */
  create(config: McpServerConfig): Promise<McpServerConfig>;
  /** Replaces the config saved under `name` (config.name may rename it); not_found:mcp / conflict:mcp. */
  update(name: string, config: McpServerConfig): Promise<McpServerConfig>;
  /** not_found:mcp when unknown. */
  remove(name: string): Promise<void>;
}

interface Row { name: string; configJson: string; enabled: boolean }

const notFoundText = (name: string) => `No MCP server named "${name}" is configured.`;

export function createMcpStore(db: Pick<Database, "exclusive">, opts: { onCorrupt?: (name: string, problem: string) => void } = {}): McpStore {
  const onCorrupt = opts.onCorrupt ?? ((name, problem) => createLog("mcp").warn(`saved config "${name}" is unreadable and was skipped: ${problem}`));

  const decode = (row: Row): McpServerConfig | null => {
    let json: unknown;
    try {
      json = JSON.parse(row.configJson);
    } catch (error) {
      onCorrupt(row.name, messageOf(error));
      return null;
    }
    const parsed = McpServerConfig.safeParse(json);
    if (!parsed.success || parsed.data.name !== row.name) {
      onCorrupt(row.name, parsed.success ? `the config names "${parsed.data.name}"` : formatIssues(parsed.error));
      return null;
    }
    return { ...parsed.data, enabled: row.enabled };
  };
  const encode = (config: McpServerConfig) => ({ name: config.name, configJson: JSON.stringify(config), enabled: config.enabled });

  /** Through the gate; a missing or duplicate row is `not_found:mcp` / `conflict:mcp` (persistence/errors). */
  const run = <T>(name: string, fn: (prisma: PrismaClient) => Promise<T>): Promise<T> =>
    db.exclusive(fn, {
      capability: "mcp",
      what: `MCP server "${name}"`,
      notFound: notFoundText(name),
      conflict: `An MCP server named "${name}" already exists.`,
      data: { name },
    });

  return {
    list: () => run("*", async (prisma) => {
      const rows = await prisma.mcpServer.findMany({ orderBy: { name: "asc" } });
      return rows.map(decode).filter((c): c is McpServerConfig => c !== null);
    }),
    get: (name) => run(name, async (prisma) => {
      const row = await prisma.mcpServer.findUnique({ where: { name } });
      return row ? decode(row) : null;
    }),
    create: (config) => run(config.name, async (prisma) => {
      const row = await prisma.mcpServer.create({ data: encode(config) });
      return decode(row) ?? config;
    }),
    update: (name, config) => run(config.name === name ? name : config.name, async (prisma) => {
      if (!(await prisma.mcpServer.findUnique({ where: { name }, select: { id: true } }))) {
        throw new HostError("not_found:mcp", notFoundText(name), { name });
      }
      const row = await prisma.mcpServer.update({ where: { name }, data: encode(config) });
      return decode(row) ?? config;
    }),
    remove: (name) => run(name, async (prisma) => {
      await prisma.mcpServer.delete({ where: { name } });
    }),
  };
}
