import { execFile } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { findPrismaDir } from "../../src/persistence/migrate.js";
import { testPostgres } from "../support/db-url.js";
import { tmpDir } from "./tmp.js";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "../../src/persistence/migrate-cli.ts");
const repo = join(here, "../../../..");

async function run(args: string[], env: Record<string, string>) {
  const clean = { ...process.env, DATABASE_URL: "", SEAM_DATABASE_URL: "", SEAM_POSTGRES_URL: "", SEAM_HOME: "", SEAM_PRISMA_DIR: "", ...env };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", cli, ...args], { env: clean, cwd: here });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe("migrate-cli", () => {
  it("finds prisma/ from src/ and from a dist-like depth, and honours SEAM_PRISMA_DIR", () => {
    const saved = process.env.SEAM_PRISMA_DIR;
    delete process.env.SEAM_PRISMA_DIR;
    try {
      expect(findPrismaDir(join(repo, "apps/host/dist/persistence"))).toBe(join(repo, "prisma"));
      expect(findPrismaDir(here)).toBe(join(repo, "prisma"));
      process.env.SEAM_PRISMA_DIR = "/somewhere/prisma";
      expect(findPrismaDir(here)).toBe("/somewhere/prisma");
    } finally {
      if (saved === undefined) delete process.env.SEAM_PRISMA_DIR;
      else process.env.SEAM_PRISMA_DIR = saved;
    }
  });

  // The PostgreSQL half runs in the PostgreSQL run (SCALE-1), which has a server; the SQLite run has none.
  it("check, deploy (twice) and create against a copy of prisma/", async () => {
    await using dir = tmpDir();
    const prismaDir = join(dir.path, "prisma");
    cpSync(join(repo, "prisma"), prismaDir, { recursive: true });
    const env: Record<string, string> = { SEAM_PRISMA_DIR: prismaDir, SEAM_HOME: join(dir.path, "home") };
    if (testPostgres) env.SEAM_POSTGRES_URL = testPostgres;

    if (testPostgres) {
      expect(await run(["check"], env)).toMatchObject({ code: 0, out: expect.stringContaining("no drift: the migrations of both providers cover schema.prisma") });
    } else {
      const check = await run(["check"], env);
      expect(check).toMatchObject({ code: 0, out: expect.stringContaining("no drift: the migrations of SQLite cover schema.prisma") });
      expect(check.out).toContain("PostgreSQL: not checked; the PostgreSQL migrations need a server for the shadow database: set SEAM_POSTGRES_URL=");
      expect(await run(["create", "nothing"], env)).toMatchObject({ code: 2, out: expect.stringContaining("set SEAM_POSTGRES_URL=") });
    }
    const first = await run(["deploy"], env);
    expect(first).toMatchObject({ code: 0, out: expect.stringMatching(/applied \d+ migration\(s\) to file:.*home\/seam\.db/) });
    expect(existsSync(join(dir.path, "home", "seam.db"))).toBe(true);
    expect(await run(["deploy"], { ...env, DATABASE_URL: `file:${join(dir.path, "home", "seam.db")}` })).toMatchObject({ code: 0, out: expect.stringContaining("is up to date") });
    expect(await run(["check", "--db"], env)).toMatchObject({ code: 0 });
    if (testPostgres) {
      const created = await run(["create", "nothing"], env);
      expect(created).toMatchObject({ code: 0, out: expect.stringContaining("SQLite: the schema matches the migrations; nothing to create") });
      expect(created.out).toContain("PostgreSQL: the schema matches the migrations; nothing to create");
    }
    expect(await run(["bogus"], env)).toMatchObject({ code: 2, out: expect.stringContaining("usage") });
  });
});
