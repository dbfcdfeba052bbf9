// Interim until the rule engine (coding-perm branch) lands. Replaced wholesale.
export async function loadShellParser(): Promise<void> {}
