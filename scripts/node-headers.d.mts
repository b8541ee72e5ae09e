// Types of node-headers.mjs, for the TypeScript tests that import it.
export function headersAbi(dir: string): string | undefined;
export function ownNodedir(execPath?: string, abi?: string): string | undefined;
export function configuredNodedir(env?: NodeJS.ProcessEnv): string | undefined;
export function nodedirFor(options?: { execPath?: string; abi?: string; version?: string; configured?: string }): { nodedir: string | undefined; note?: string };
