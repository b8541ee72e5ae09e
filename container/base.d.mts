export declare const BASE_REPOSITORY: string;
export declare function baseInputs(): Promise<Record<string, unknown>>;
/** The base image's name, made first unless one with the same inputs exists. */
export declare function ensureBase(log?: (line: string) => void): Promise<string>;
