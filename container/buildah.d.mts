import type { StdioOptions } from "node:child_process";

export declare const BUILDAH: string;
export declare const DEBOOTSTRAP: string;
export declare const BUILDAH_CACHE: string;
export declare const STORAGE: string[];
export declare function sh(command: string, args: string[], options?: { stdio?: StdioOptions; check?: boolean; env?: NodeJS.ProcessEnv }): string;
export declare function buildah(args: string[], options?: { check?: boolean; stdio?: StdioOptions }): { status: number | null; stdout: string; stderr: string };
export declare function missingTools(): string | undefined;
