// Bundles the compiled host (dist/main.js and everything it imports from dist/ and @seam/shared) into
// dist/bundle/: main.js plus one chunk per lazily imported part (MCP, the cluster, ...), which still load
// only when first used. Node resolves and links one module where it used to resolve ~260, which is about a
// fifth of the host's start-up (bench/README.md, "startup"). Packages from node_modules stay external:
// they load as before, once (zod especially: the AI SDK and the MCP SDK import it too).
//
// Every `import.meta.url` in dist/ is rewritten to the URL of the file it was compiled to, relative to the
// bundle, so tool descriptions, worker files, bundled skills and the Prisma folder resolve exactly as they
// do from dist/. Run after tsc and copy-assets; `npm start`, e2e and the benches run dist/bundle/main.js.
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
const outdir = join(dist, "bundle");
/** Workspace packages compiled with the host; everything else is a real dependency and stays external. */
const BUNDLED = new Set(["@seam/shared"]);

const packageName = (spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

// Chunk names are content hashes: a rebuild starts from an empty folder so no chunk of an older build lingers.
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(dist, "main.js")],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  keepNames: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [{
    name: "seam-host",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.has(packageName(args.path)) ? undefined : { external: true }));
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist + "/")) return undefined;
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return { contents: source, loader: "js" };
        const own = `new URL(${JSON.stringify(relative(outdir, args.path))}, import.meta.url).href`;
        return { contents: source.replaceAll("import.meta.url", own), loader: "js" };
      });
    },
  }],
});
