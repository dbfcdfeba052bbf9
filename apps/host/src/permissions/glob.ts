/**
 * File globs of edit_file/write_file rules, matched against workspace-relative paths with "/" separators:
 * `**` any number of folders, `*` and `?` within one name, `{a,b}` alternatives, `[abc]` / `[!abc]` one
 * character. Names starting with a dot match like any other.
 */
export function globProblem(glob: string): string | null {
  if (glob.startsWith("/")) return "File globs are relative to the workspace: drop the leading / (src/**, not /src/**).";
  if (glob.split("/").some((s) => s === "..")) return "File globs cannot leave the workspace: remove the .. segment.";
  if (glob.includes("\\")) return "Use / to separate folders in a file glob.";
  let depth = 0;
  for (const c of glob) {
    if (c === "{") depth++;
    if (c === "}" && --depth < 0) return "A } in the glob has no matching {.";
  }
  if (depth !== 0) return "A { in the glob is not closed.";
  if (/\[[^\]]*$/.test(glob)) return "A [ in the glob is not closed.";
  return null;
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob.replace(/^\.\//, ""))}$`, "u");
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const atStart = i === 0 || glob[i - 1] === "/";
      const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
      i++;
      if (atStart && glob[i + 1] === "/") {
        out += "(?:[^/]*(?:/[^/]*)*/)?"; // `**/`: zero or more folders
        i++;
      } else if (atStart && atEnd && out.endsWith("/")) {
        out = `${out.slice(0, -1)}(?:/.*)?`; // trailing `/**`: the folder and everything below it
      } else {
        out += ".*";
      }
    } else if (c === "*") {
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, end).replace(/^!/, "^").replace(/[\\\]]/g, "\\$&");
      out += `[${body}]`;
      i = end;
    } else if (c === "{") {
      const end = closingBrace(glob, i);
      out += `(?:${splitAlternatives(glob.slice(i + 1, end)).map(translate).join("|")})`;
      i = end;
    } else {
      out += c.replace(/[.+^$()|\\\]}]/g, "\\$&");
    }
  }
  return out;
}

function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === "{") depth++;
    else if (glob[i] === "}" && --depth === 0) return i;
  }
  return glob.length;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
