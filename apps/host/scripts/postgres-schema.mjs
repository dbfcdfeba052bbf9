// Writes prisma/postgres/schema.prisma from prisma/schema.prisma (SCALE-1): one schema source, a Prisma
// client and a migrations folder per provider. Only the datasource provider and the client's output
// folder differ; `test/persistence/postgres-schema.test.ts` fails when the committed copy is stale.
// Usage: node scripts/postgres-schema.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { postgresSchema } from "./postgres-schema-text.mjs";

const prisma = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "prisma");
const target = join(prisma, "postgres", "schema.prisma");
const wanted = postgresSchema(readFileSync(join(prisma, "schema.prisma"), "utf8"));
let current = "";
try { current = readFileSync(target, "utf8"); } catch { /* first run */ }
if (process.argv.includes("--check")) {
  if (current !== wanted) {
    console.error("prisma/postgres/schema.prisma is stale: run `npm run -w @seam/host generate`");
    process.exit(1);
  }
} else if (current !== wanted) {
  writeFileSync(target, wanted);
  console.log("wrote prisma/postgres/schema.prisma");
}
