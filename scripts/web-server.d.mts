/** Types for web-server.mjs (used by the e2e config and the benches). */
export declare const WEB_SERVER_PATH: string;
export declare const WEB_NODE_FLAGS: readonly string[];
export declare function webServer(root: string, port: number | string): { args: string[]; env: Record<string, string> };
export declare function webServerMissing(root: string): string | null;
