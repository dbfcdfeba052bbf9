/**
 * The dependency direction check (`npm run depcheck`, part of `npm test`). Types flow one way: capability
 * folders never import the composition files (host.ts, host-api.ts, main.ts), and nothing imports in a
 * circle — type-only imports included. The parser is swc: dependency-cruiser reads TypeScript through
 * the TypeScript 5 compiler API, which the project's TypeScript 7 does not have.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle (type-only imports count) means two modules cannot be understood or changed apart.",
      from: {},
      to: { circular: true },
    },
    {
      name: "host-composition-is-on-top",
      severity: "error",
      comment: "A capability must not reach up into the composition root; it exports its Api and the host composes it. (trpc/ sits on top of host-api.ts.)",
      from: { path: "^apps/host/src/[^/]+/", pathNot: "^apps/host/src/trpc/" },
      to: { path: "^apps/host/src/(host|host-api|main|capabilities)\\.ts$" },
    },
    {
      name: "web-app-entry-is-on-top",
      severity: "error",
      comment: "Components and hooks must not import the app's layouts and pages.",
      from: { path: "^apps/web/src/(components|trpc|lib)/" },
      to: { path: "^apps/web/src/app/.*(page|layout)\\.tsx$" },
    },
  ],
  options: {
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // swc parses TypeScript but not TSX; .tsx files are held to no-cycle by oxlint (`import/no-cycle`, see .oxlintrc.json).
    exclude: { path: ["(^|/)(generated|dist|\\.next)/", "\\.tsx$"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".d.ts", ".js", ".mjs"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
