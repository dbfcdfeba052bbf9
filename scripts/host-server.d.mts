/** Types for host-server.mjs (used by the e2e fixtures and the benches). */
export declare const HOST_MAIN_PATH: string;
export declare const HOST_NODE_FLAGS: readonly string[];
export declare function hostServer(root: string, extra?: readonly string[], main?: string): { args: string[] };
