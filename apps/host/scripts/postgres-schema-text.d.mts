/** The PostgreSQL copy of the SQLite schema source (see postgres-schema-text.mjs). */
export function postgresSchema(source: string): string;
