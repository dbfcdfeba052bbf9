// Copies the model-facing tool descriptions (src/**/*.md, except READMEs), the plain-JavaScript
// worker bodies (src/**/*.mjs, e.g. workspace/grep-worker.mjs) and the extension API declarations
// (src/extensions/api/*.d.ts, read at runtime by extensions/docs.ts; tsc never emits .d.ts inputs)
// next to the compiled code.
import { cpSync, readdirSync, statSync, mkdirSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const apiDeclarations = join("extensions", "api");
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === "generated") continue;
    if (statSync(p).isDirectory()) walk(p);
    else if ((name.endsWith(".md") && name !== "README.md") || name.endsWith(".mjs") || (name.endsWith(".d.ts") && relative(src, dir) === apiDeclarations)) {
      const out = join(root, "dist", relative(src, p));
      mkdirSync(dirname(out), { recursive: true });
      cpSync(p, out);
    }
  }
};
walk(src);
