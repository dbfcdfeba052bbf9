/**
 * A small glob dialect for grep's `glob` filter: `*` (not "/"), `**` (any depth), `?`, `[abc]`/`[!abc]`
 * and `{a,b}`. Throws SyntaxError for patterns that produce an invalid expression.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${toSource(glob)}$`);
}

/** A glob without "/" matches the file name; otherwise the path relative to the workspace root. */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const re = globToRegExp(glob);
  if (glob.includes("/")) return (path) => re.test(path);
  return (path) => re.test(path.slice(path.lastIndexOf("/") + 1));
}

function toSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        out += "(?:.*/)?";
      } else out += ".*";
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{" && glob.indexOf("}", i) > i) {
      const close = glob.indexOf("}", i);
      out += `(?:${glob.slice(i + 1, close).split(",").map(toSource).join("|")})`;
      i = close;
    } else if (c === "[" && glob.indexOf("]", i + 2) > i) {
      const close = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, close).replace(/\\/g, "\\\\");
      out += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
      i = close;
    } else out += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return out;
}
