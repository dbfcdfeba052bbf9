import { beforeAll, describe, expect, it } from "vitest";
import { loadShellParser, parseCommand, shellParserLoaded } from "../../src/permissions/shell.js";
import { thrown } from "../support/errors.js";

const ws = "/home/u/project";
const parse = (command: string, cwd?: string) => parseCommand(command, { workspace: ws, cwd });
const names = (command: string) => parse(command).commands.map((c) => [c.name, ...c.args].join(" "));

describe("parseCommand before the parser is loaded (PERM-2)", () => {
  it("throws unavailable and says to load it first", () => {
    expect(shellParserLoaded()).toBe(false);
    const error = thrown(() => parse("ls"));
    expect(error.code).toBe("unavailable:permissions");
    expect(error.message).toContain("loadShellParser");
  });
});

describe("parseCommand (PERM-2)", () => {
  beforeAll(() => loadShellParser());

  it("loads once: later calls return the same parser", async () => {
    expect(await loadShellParser()).toBe(await loadShellParser());
  });

  it("refuses a relative workspace", () => {
    expect(thrown(() => parseCommand("ls", { workspace: "project" })).code).toBe("bad_input:permissions");
  });

  it.each([
    ["git diff HEAD~1 && npm test | tee out.txt; echo $(rm -rf /) > x", ["git diff HEAD~1", "npm test", "tee out.txt", "echo $(rm -rf /)", "rm -rf /"]],
    ["a || b; c\nd & e", ["a", "b", "c", "d", "e"]],
    ["(cd sub && make) ; { ls; pwd; }", ["make", "ls", "pwd"]],
    ["echo `date` <(sort a) >(tee b)", ["echo `date` <(sort a) >(tee b)", "date", "sort a", "tee b"]],
    ["if test -f x; then rm x; elif true; then :; else echo no; fi", ["test -f x", "rm x", "true", ":", "echo no"]],
    ["for f in *.md; do wc -l \"$f\"; done; while read l; do echo; done < in.txt", ["wc -l \"$f\"", "read l", "echo"]],
    ["case $1 in a) ls ;; *) pwd ;; esac", ["ls", "pwd"]],
    ["f() { rm -rf build; }; f", ["rm -rf build", "f"]],
    ["X=$(whoami) Y=1", ["whoami"]],
    ["git commit -m \"a && b; c | d\"", ["git commit -m a && b; c | d"]],
    ["ls # && rm -rf /\necho a \\\n  b", ["ls", "echo a b"]],
    ["", []],
    ["   # only a comment", []],
  ])("splits %j into its simple commands", (command, expected) => {
    expect(names(command)).toEqual(expected);
  });

  it("unquotes static words and keeps the source text of dynamic ones", () => {
    const [c] = parse(`FOO=1 BAR="x y" grep -e 'a b' "c\\"d" e\\ f $HOME ~/x *.ts {a,b} "$(pwd)"`).commands;
    expect(c).toMatchObject({ name: "grep", assignments: ["FOO=1", "BAR=x y"], dynamic: true, start: 0, sensitive: [] });
    expect(c!.args).toEqual(["-e", "a b", 'c"d', "e f", "$HOME", "~/x", "*.ts", "{a,b}", '"$(pwd)"']);
    expect(c!.literal).toEqual([true, true, true, true, true, false, false, false, false, false]);
  });

  it("peels wrappers and marks assignments that change what runs", () => {
    const [c] = parse("timeout -s KILL 5 env LD_PRELOAD=x.so nice -n 3 ls -la").commands;
    expect([c!.name, ...c!.args].slice(c!.start)).toEqual(["ls", "-la"]);
    expect(c!.sensitive).toEqual(["LD_PRELOAD"]);
    expect(parse("PATH=/tmp npm test").commands[0]!.sensitive).toEqual(["PATH"]);
    expect(parse("command -v git").commands[0]!.start).toBe(0);
  });

  it("records redirections: inside, outside, devices and descriptor copies", () => {
    const r = parse("a > out.txt 2>&1 >> /dev/null < /etc/hosts 2> ../log &> /tmp/x 3>&-");
    expect(r.redirects.map((x) => [x.operator, x.path, x.write])).toEqual([
      [">", `${ws}/out.txt`, true],
      [">>", "/dev/null", true],
      ["<", "/etc/hosts", false],
      [">", "/home/u/log", true],
      ["&>", "/tmp/x", true],
    ]);
    expect(r.problems).toHaveLength(2);
    expect(r.problems.join("\n")).toMatch(/\/home\/u\/log[\s\S]*\/tmp\/x/);
  });

  it("follows cd for redirections and resolves against the given cwd", () => {
    expect(parse("cd src && echo > ../../x").problems[0]).toContain("outside the workspace (/home/u/x)");
    expect(parse("cd src && echo > ../x").problems).toEqual([]);
    expect(parse("cd $D && echo > x").problems[0]).toContain("cd");
    expect(parse("echo > x", `${ws}/sub`).redirects[0]!.path).toBe(`${ws}/sub/x`);
    expect(names("cd src && ls")).toEqual(["ls"]);
    expect(names("cd /etc && ls")).toEqual(["cd /etc", "ls"]);
  });

  it.each([
    ["eval \"ls\"", "eval"],
    ["exec ls", "exec"],
    ["bash -c \"$S\"", "bash -c"],
    ["cat x | sh", "reads its commands"],
    ["sudo ls", "privileges"],
    ["ls | xargs rm", "xargs"],
    ["find . -exec rm {} \\;", "find -exec"],
    ["source \"$F\"", "source"],
    ["$CMD x", "command name"],
    ["\"$(which rm)\" x", "command name"],
    ["export PATH=/tmp:$PATH", "PATH"],
    ["echo \"unterminated", "cannot be parsed"],
    ["if true; then", "incomplete"],
    ["echo hi > \"$OUT\"", "only known"],
    ["LD_PRELOAD=x bash -c 'ls'", "shell script"],
    ["trap 'rm x' EXIT", "trap"],
  ])("reports %j as a problem", (command, fragment) => {
    expect(parse(command).problems.join("\n")).toContain(fragment);
  });

  it("sees through a fixed bash -c script, nested up to a limit", () => {
    const r = parse("bash -lc 'npm test && sh -c \"rm -rf build\"'");
    expect(r.commands.filter((c) => !c.runsScript).map((c) => c.name)).toEqual(["npm", "rm"]);
    expect(r.problems).toEqual([]);
    expect(parse(`bash -c "bash -c 'bash -c \\"bash -c ls\\"'"`).problems.join()).toContain("nested too deeply");
  });

  it("refuses to parse a very long command", () => {
    expect(parse(`echo ${"a".repeat(100_001)}`).problems[0]).toContain("longer than");
  });

  it("frees its trees: thousands of parses do not grow WebAssembly memory", () => {
    const command = "git diff HEAD~1 && npm test | tee out.txt; echo $(date) > x; for f in *.md; do wc -l \"$f\"; done";
    for (let i = 0; i < 200; i++) parse(command);
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 5_000; i++) parse(command);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
  });

  it("parses a 200-character compound command in well under a millisecond once warm", () => {
    const command = "git status --short && npm run build -- --mode=production 2>&1 | tee build.log; cat <<EOF > notes.txt\nbuilt $(date)\nEOF\nfor f in src/*.ts; do wc -l \"$f\"; done || echo failed";
    for (let i = 0; i < 200; i++) parse(command);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = performance.now();
      parse(command);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    expect(times[250]!).toBeLessThan(1);
  });
});
