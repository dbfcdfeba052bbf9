import { createHash } from "node:crypto";
import {
  ExtensionApprovalKind, type ExtensionGrantView, type ExtensionPackageView, type ExtensionVersionSource, type ExtensionVersionSummary,
} from "@seam/shared";
import { HostError } from "../core/errors.js";
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
import type { Database } from "../persistence/db.js";
import { runExpecting } from "../persistence/expected.js";

/** One half's source as defined; `null` when the package has no such half. */
export interface ExtensionDefinition {
  purpose: string;
  hostCode: string | null;
  browserCode: string | null;
}

export interface DefineOutcome {
  packageId: string;
  version: number;
  hash: string;
  /** false when the definition equals the latest version's (same hash): nothing was written. */
  created: boolean;
}

/**
 * Extension packages and their immutable versions in SQLite (EXT-2). Lookups by name are scoped to
 * one session: another session's package reads as absent. Every call goes through `db.exclusive`.
 */
export interface ExtensionStore {
  /** Appends a version (number = latest + 1), creating the package on its first define. Callers check syntax first. */
  define(sessionId: string, name: string, def: ExtensionDefinition): Promise<DefineOutcome>;
  /** The package `name` of this session with its versions, or null. */
  find(sessionId: string, name: string): Promise<ExtensionPackageView | null>;
  /** This session's packages, by name. */
  listForSession(sessionId: string): Promise<ExtensionPackageView[]>;
  /** Every package of every session (the extensions page), by session then name. */
  listAll(): Promise<ExtensionPackageView[]>;
  /** One version with its source; `version` omitted = the latest. not_found:extensions if absent. */
  source(packageId: string, version?: number): Promise<ExtensionVersionSource>;
  /** Deletes the package with its versions, decisions and grants. not_found:extensions if absent. */
  remove(packageId: string): Promise<void>;
  /** Records a run request's answer for one version. */
  decide(packageId: string, version: number, decision: "allow" | "deny", by: ExtensionApprovalKind, allowFuture: boolean): Promise<void>;
  /** The newest version of the package that was allowed to run (by anyone), or null. */
  lastAllowed(packageId: string): Promise<ExtensionVersionSource | null>;
  /** Opens (or keeps) the package's grant, naming the version that created it. */
  grant(packageId: string, fromVersion: number): Promise<ExtensionGrantView>;
  /** Closes the package's active grant; false if it had none. */
  revoke(packageId: string): Promise<boolean>;
  /** The package's active grant, or null. */
  activeGrant(packageId: string): Promise<ExtensionGrantView | null>;
}


/** sha256 (hex) of the definition as canonical JSON: fixed key order, absent halves as null. */
export function definitionHash(def: ExtensionDefinition): string {
  const canonical = JSON.stringify({ browserCode: def.browserCode, hostCode: def.hostCode, purpose: def.purpose });
  return createHash("sha256").update(canonical).digest("hex");
}

type Tx = Prisma.TransactionClient;
const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

const latestDecision = { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1 } satisfies Prisma.ExtensionVersion$decisionsArgs;
const activeGrantOnly = { where: { revokedAt: null }, orderBy: { createdAt: "desc" }, take: 1 } satisfies Prisma.ExtensionPackage$grantsArgs;
const packageInclude = {
  session: { select: { title: true } },
  versions: { orderBy: { number: "asc" }, include: { decisions: latestDecision } },
  grants: activeGrantOnly,
} satisfies Prisma.ExtensionPackageInclude;
const versionInclude = { package: { select: { name: true } }, decisions: latestDecision } satisfies Prisma.ExtensionVersionInclude;

type PackageRow = Prisma.ExtensionPackageGetPayload<{ include: typeof packageInclude }>;
type VersionRow = Prisma.ExtensionVersionGetPayload<{ include: { decisions: typeof latestDecision } }>;
type SourceRow = Prisma.ExtensionVersionGetPayload<{ include: typeof versionInclude }>;
type GrantRow = Prisma.ExtensionGrantGetPayload<object>;

// Rows are only written by this store; an unreadable value fails closed (deny) rather than throwing.
const approvalKind = ExtensionApprovalKind.catch("user");

const summary = (v: VersionRow): ExtensionVersionSummary => {
  const d = v.decisions[0];
  return {
    version: v.number,
    hash: v.hash,
    purpose: v.purpose,
    hasHost: v.hostCode !== null,
    hasBrowser: v.browserCode !== null,
    createdAt: v.createdAt.toISOString(),
    decision: d ? { decision: d.decision === "allow" ? "allow" : "deny", by: approvalKind.parse(d.by), at: d.createdAt.toISOString() } : null,
  };
};
const sourceView = (v: SourceRow): ExtensionVersionSource => ({
  ...summary(v),
  packageId: v.packageId,
  packageName: v.package.name,
  hostCode: v.hostCode,
  browserCode: v.browserCode,
});
const grantView = (g: GrantRow, pkg: { name: string; sessionId: string }): ExtensionGrantView => ({
  packageId: g.packageId,
  packageName: pkg.name,
  sessionId: pkg.sessionId,
  fromVersion: g.fromVersion,
  grantedAt: g.createdAt.toISOString(),
});
const packageView = (p: PackageRow): ExtensionPackageView => {
  const g = p.grants[0];
  return {
    id: p.id,
    name: p.name,
    sessionId: p.sessionId,
    sessionTitle: p.session.title,
    createdAt: p.createdAt.toISOString(),
    versions: p.versions.map(summary),
    grant: g ? grantView(g, p) : null,
  };
};

const missing = (what: string, data: Record<string, unknown>) => new HostError("not_found:extensions", `${what} not found`, data);

export function createExtensionStore(db: Pick<Database, "exclusive">): ExtensionStore {
  // Decisions are ordered by time; two in the same millisecond must still keep their order.
  let lastStamp = 0;
  const stamp = () => new Date((lastStamp = Math.max(Date.now(), lastStamp + 1)));

  /** Maps the Prisma failures these tables can produce to extensions codes; the gate maps the rest. */
  const run = <T>(what: string, fn: (prisma: PrismaClient) => Promise<T>): Promise<T> => runExpecting(db, {
    P2002: (cause) => new HostError("conflict:extensions", `${what} was changed concurrently; try again`, { prismaCode: cause.code }, { cause }),
    P2025: (cause) => new HostError("not_found:extensions", `${what} not found`, { prismaCode: cause.code }, { cause }),
  }, fn);
  const tx = <T>(prisma: PrismaClient, fn: (t: Tx) => Promise<T>) => prisma.$transaction(fn, TX_OPTIONS);

  const findPackage = async (t: Tx | PrismaClient, packageId: string) => {
    const p = await t.extensionPackage.findUnique({ where: { id: packageId }, select: { name: true, sessionId: true } });
    if (!p) throw missing(`extension package ${packageId}`, { packageId });
    return p;
  };

  return {
    define: (sessionId, name, def) => run(`extension ${name}`, (prisma) => tx(prisma, async (t) => {
      const hash = definitionHash(def);
      const pkg = await t.extensionPackage.upsert({ where: { sessionId_name: { sessionId, name } }, create: { sessionId, name }, update: {}, select: { id: true } });
      const latest = await t.extensionVersion.findFirst({ where: { packageId: pkg.id }, orderBy: { number: "desc" }, select: { number: true, hash: true } });
      if (latest?.hash === hash) return { packageId: pkg.id, version: latest.number, hash, created: false };
      const number = (latest?.number ?? 0) + 1;
      await t.extensionVersion.create({ data: { packageId: pkg.id, number, hash, purpose: def.purpose, hostCode: def.hostCode, browserCode: def.browserCode } });
      return { packageId: pkg.id, version: number, hash, created: true };
    })),
    find: (sessionId, name) => run(`extension ${name}`, async (prisma) => {
      const p = await prisma.extensionPackage.findUnique({ where: { sessionId_name: { sessionId, name } }, include: packageInclude });
      return p ? packageView(p) : null;
    }),
    listForSession: (sessionId) => run("extension packages", async (prisma) =>
      (await prisma.extensionPackage.findMany({ where: { sessionId }, orderBy: { name: "asc" }, include: packageInclude })).map(packageView)),
    listAll: () => run("extension packages", async (prisma) =>
      (await prisma.extensionPackage.findMany({ orderBy: [{ sessionId: "asc" }, { name: "asc" }], include: packageInclude })).map(packageView)),
    source: (packageId, version) => run(`extension package ${packageId}`, async (prisma) => {
      const v = await prisma.extensionVersion.findFirst({
        where: { packageId, ...(version === undefined ? {} : { number: version }) },
        orderBy: { number: "desc" },
        include: versionInclude,
      });
      if (!v) throw missing(version === undefined ? `extension package ${packageId}` : `version ${version} of extension package ${packageId}`, { packageId, version });
      return sourceView(v);
    }),
    remove: (packageId) => run(`extension package ${packageId}`, async (prisma) => {
      // Versions, their decisions and the grants go with it (ON DELETE CASCADE).
      await prisma.extensionPackage.delete({ where: { id: packageId } });
    }),
    decide: (packageId, version, decision, by, allowFuture) => run(`extension package ${packageId}`, async (prisma) => {
      const v = await prisma.extensionVersion.findUnique({ where: { packageId_number: { packageId, number: version } }, select: { id: true } });
      if (!v) throw missing(`version ${version} of extension package ${packageId}`, { packageId, version });
      await prisma.extensionDecision.create({ data: { versionId: v.id, decision, by, allowFuture, createdAt: stamp() } });
    }),
    lastAllowed: (packageId) => run(`extension package ${packageId}`, async (prisma) => {
      // Decide on the latest decisions first, then load the source of just that version.
      const versions = await prisma.extensionVersion.findMany({
        where: { packageId, decisions: { some: { decision: "allow" } } },
        orderBy: { number: "desc" },
        select: { id: true, decisions: { ...latestDecision, select: { decision: true } } },
      });
      const allowed = versions.find((v) => v.decisions[0]?.decision === "allow");
      if (!allowed) return null;
      return sourceView(await prisma.extensionVersion.findUniqueOrThrow({ where: { id: allowed.id }, include: versionInclude }));
    }),
    grant: (packageId, fromVersion) => run(`extension package ${packageId}`, (prisma) => tx(prisma, async (t) => {
      const pkg = await findPackage(t, packageId);
      const active = await t.extensionGrant.findFirst({ where: { packageId, revokedAt: null }, orderBy: { createdAt: "desc" } });
      return grantView(active ?? (await t.extensionGrant.create({ data: { packageId, fromVersion, createdAt: stamp() } })), pkg);
    })),
    revoke: (packageId) => run(`extension package ${packageId}`, async (prisma) => {
      const { count } = await prisma.extensionGrant.updateMany({ where: { packageId, revokedAt: null }, data: { revokedAt: stamp() } });
      return count > 0;
    }),
    activeGrant: (packageId) => run(`extension package ${packageId}`, async (prisma) => {
      const g = await prisma.extensionGrant.findFirst({ where: { packageId, revokedAt: null }, orderBy: { createdAt: "desc" }, include: { package: { select: { name: true, sessionId: true } } } });
      return g ? grantView(g, g.package) : null;
    }),
  };
}
