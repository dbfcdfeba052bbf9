import ignore, { type Ignore } from "ignore";
import type { Shadow } from "./shadow.js";

/**
 * Whether a path was ignored by the `.gitignore` files of a snapshot's own tree (CODE-5). A file that is in the
 * workspace now but not in an older snapshot was either created since — restoring removes it — or already there
 * and ignored when that snapshot was taken, so the snapshot never saw it: removing it would lose a file the
 * snapshot cannot give back. The tree's `.gitignore` files say which, as git applied them then: deeper files
 * win over shallower ones, and a later `!pattern` re-includes.
 */
export function ignoredInTree(shadow: Shadow, tree: string): (path: string) => Promise<boolean> {
  const rules = new Map<string, Promise<Ignore | null>>();
  const rulesOf = (dir: string) => {
    let r = rules.get(dir);
    if (!r) rules.set(dir, (r = readRules(shadow, tree, dir)));
    return r;
  };
  return async (path) => {
    const parts = path.split("/");
    let ignored = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join("/");
      const ig = await rulesOf(dir);
      if (!ig) continue;
      // Git does not look into an ignored folder, so a file under one is ignored whatever deeper rules say.
      for (let end = depth + 1; end <= parts.length; end++) {
        const rel = parts.slice(depth, end).join("/") + (end < parts.length ? "/" : "");
        const verdict = ig.test(rel);
        if (end < parts.length && verdict.ignored) return true;
        if (end === parts.length) {
          if (verdict.ignored) ignored = true;
          else if (verdict.unignored) ignored = false;
        }
      }
    }
    return ignored;
  };
}

async function readRules(shadow: Shadow, tree: string, dir: string): Promise<Ignore | null> {
  const spec = `${tree}:${dir ? `${dir}/` : ""}.gitignore`;
  // 128: no such file in that tree.
  const out = await shadow.git({ args: ["cat-file", "blob", spec], okCodes: [0, 128] });
  return out.code === 0 ? ignore().add(out.stdout.toString("utf8")) : null;
}
