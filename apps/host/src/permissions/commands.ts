/**
 * What a simple command really runs: wrappers such as `sudo`, `env`, `timeout 10` or `nice -n 5` are
 * peeled off so rules see the command inside, and commands whose effect cannot be read from their
 * words (eval, exec, xargs, find -exec, a shell reading its input, …) are reported as problems.
 */

/** Variables that change which program runs or what it loads; never stripped silently for an allow rule. */
const SENSITIVE_VARIABLE =
  /^(PATH|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|EDITOR|VISUAL|PAGER|GIT_PAGER|GIT_EDITOR|GIT_SSH|GIT_SSH_COMMAND|GIT_EXEC_PATH|GIT_DIR|GIT_WORK_TREE|GIT_CONFIG.*|LD_.*|DYLD_.*|BASH_FUNC_.*|npm_config_.*|NPM_CONFIG_.*)$/;

export const isSensitiveVariable = (name: string): boolean => SENSITIVE_VARIABLE.test(name);

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash"]);
const ELEVATING = new Set(["sudo", "doas", "su", "pkexec", "runuser"]);
const RUNS_STRING = new Set(["eval", "exec", "trap", "coproc"]);

/** Options that take a value, per wrapper (`-n 5`); the first other word is the wrapped command (or, for timeout, its duration). */
const WRAPPERS: Record<string, { valued: string[]; positional?: number }> = {
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--chdir"] },
  doas: { valued: ["-u", "-C"] },
  env: { valued: ["-u", "--unset", "-C", "--chdir"] },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: { valued: [] },
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  time: { valued: ["-f", "--format", "-o", "--output"] },
  command: { valued: [] },
  builtin: { valued: [] },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
};

export interface Peeled {
  /** Index of the command that really runs, in [name, ...args]. */
  start: number;
  /** NAME=value words given to `env`. */
  assignments: string[];
  problems: string[];
  /** The script of `bash -c '<script>'` when it is a fixed string, to be parsed in turn. */
  script?: string;
}

/** Peels wrappers off `words` (name first) and classifies the command inside. */
export function peel(words: readonly string[], literal: readonly boolean[]): Peeled {
  const out: Peeled = { start: 0, assignments: [], problems: [] };
  for (;;) {
    const name = words[out.start];
    if (name === undefined || !literal[out.start]) return out;
    const base = name.slice(name.lastIndexOf("/") + 1);
    classify(base, words, literal, out);
    const wrapper = WRAPPERS[base];
    if (!wrapper) return out;
    // `command -v git` only looks the name up.
    if (base === "command" && words.slice(out.start + 1).some((w) => w === "-v" || w === "-V")) return out;
    const next = skipOptions(base, wrapper, words, out);
    if (next === null || next >= words.length) return out;
    out.start = next;
  }
}

function skipOptions(base: string, wrapper: { valued: string[]; positional?: number }, words: readonly string[], out: Peeled): number | null {
  let i = out.start + 1;
  let positional = wrapper.positional ?? 0;
  while (i < words.length) {
    const w = words[i]!;
    if (w === "--") {
      i++;
      break;
    }
    if (base === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) {
      out.assignments.push(w);
      i++;
      continue;
    }
    if (base === "env" && (w === "-S" || w.startsWith("--split-string") || /^-[a-zA-Z]*S/.test(w))) {
      out.problems.push("`env -S` splits a string into a command that cannot be checked");
      return null;
    }
    if (w.startsWith("-") && w.length > 1) {
      i += wrapper.valued.includes(w) ? 2 : 1;
      continue;
    }
    if (positional > 0) {
      positional--;
      i++;
      continue;
    }
    break;
  }
  return i;
}

function classify(base: string, words: readonly string[], literal: readonly boolean[], out: Peeled): void {
  const at = out.start;
  const args = words.slice(at + 1);
  if (RUNS_STRING.has(base)) {
    out.problems.push(`\`${base}\` runs commands that cannot be checked before it runs`);
  } else if (ELEVATING.has(base)) {
    out.problems.push(`\`${base}\` runs a command with other privileges`);
  } else if (base === "xargs") {
    out.problems.push("`xargs` builds its command from its input, which cannot be checked");
  } else if (base === "find" && args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a))) {
    out.problems.push("`find -exec` runs a command for each file found, which cannot be checked here");
  } else if ((base === "source" || base === ".") && args.length > 0 && !literal[at + 1]) {
    out.problems.push(`\`${base}\` reads a file whose name is only known when it runs`);
  } else if (SHELLS.has(base)) {
    shellInvocation(base, words, literal, out);
  }
}

/** `bash -c '<script>'` is seen through; a shell reading its input or a dynamic script cannot be. */
function shellInvocation(base: string, words: readonly string[], literal: readonly boolean[], out: Peeled): void {
  let commandMode = false;
  for (let i = out.start + 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--" || w === "-") continue;
    if (/^[-+][A-Za-z]+$/.test(w)) {
      if (w.startsWith("-") && w.includes("c")) commandMode = true;
      if (w.startsWith("-") && w.includes("s")) break;
      if (/^[-+][oO]$/.test(w)) i++;
      continue;
    }
    if (w.startsWith("--")) {
      if (w === "--rcfile" || w === "--init-file") i++;
      continue;
    }
    if (!commandMode) return; // `bash script.sh`: a program with a file argument, matched by rules like any other
    if (!literal[i]) out.problems.push(`\`${base} -c\` runs a script only known when it runs`);
    else out.script = w;
    return;
  }
  out.problems.push(`\`${base}\` ${commandMode ? "-c has no script" : "reads its commands from its input, which cannot be checked"}`);
}
