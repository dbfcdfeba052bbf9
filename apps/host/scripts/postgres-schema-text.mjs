/**
 * The PostgreSQL copy of the SQLite schema source: the datasource provider becomes `postgresql` and the
 * generated client goes to `src/generated/prisma-pg` (one folder deeper, so the relative output moves too).
 * Throws when the source no longer has the shape this relies on, rather than writing a wrong schema.
 */
export function postgresSchema(source) {
  const provider = /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"sqlite"/;
  const output = /(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/apps\/host\/src\/generated\/prisma"/;
  if (!provider.test(source)) throw new Error('prisma/schema.prisma: datasource db must say provider = "sqlite"');
  if (!output.test(source)) throw new Error('prisma/schema.prisma: generator client must say output = "../apps/host/src/generated/prisma"');
  const header = "// GENERATED from prisma/schema.prisma by apps/host/scripts/postgres-schema.mjs (SCALE-1). Do not edit.\n\n";
  return header + source.replace(provider, '$1"postgresql"').replace(output, '$1"../../apps/host/src/generated/prisma-pg"');
}
