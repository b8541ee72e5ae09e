import { isWellFormedApiKey } from "@iccid/core/grammar";
import { isHttpUrl, type Config } from "./config-schema.js";
import { CredentialsError, UsageError } from "./errors.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/** The global flags every command may be given. */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  /** Seconds one attempt may take (`--timeout`, else ICCID_TIMEOUT, else the SDK's default). */
  timeout?: number;
  /** false with `--no-wait`: a rate-limited request fails (exit 5) instead of waiting to retry. */
  wait?: boolean;
}

/** Milliseconds per attempt from `--timeout` or ICCID_TIMEOUT (seconds), or undefined for the SDK default. */
export function resolveTimeoutMs(options: GlobalOptions, env: NodeJS.ProcessEnv): number | undefined {
  const seconds = options.timeout ?? (env.ICCID_TIMEOUT ? Number(env.ICCID_TIMEOUT) : undefined);
  if (seconds === undefined) return undefined;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`ICCID_TIMEOUT must be a number of seconds above 0 (got "${env.ICCID_TIMEOUT}")`);
  return Math.round(seconds * 1000);
}

export interface Resolved {
  value: string;
  /** Where the value came from, for error messages that tell the user what to fix. */
  source: string;
}

/** Base URL: `--base-url` > `ICCID_BASE_URL` > config > the local default. */
export function resolveBaseUrl(options: GlobalOptions, env: NodeJS.ProcessEnv, config: Config): Resolved {
  const found: Resolved =
    (options.baseUrl && { value: options.baseUrl, source: "--base-url" }) ||
    (env.ICCID_BASE_URL && { value: env.ICCID_BASE_URL, source: "ICCID_BASE_URL" }) ||
    (config.base_url && { value: config.base_url, source: "the config file (base_url)" }) || {
      value: DEFAULT_BASE_URL,
      source: "the default",
    };
  if (!isHttpUrl(found.value)) throw new UsageError(`the base URL from ${found.source} is not an http(s) URL: ${found.value}`);
  // One canonical spelling, so a stored session matches whether or not the user typed a trailing slash.
  return { value: found.value.replace(/\/+$/, ""), source: found.source };
}

/**
 * API key: `--api-key` > `ICCID_API_KEY` > config. A missing or mistyped key fails here, offline, with
 * the same exit code the server's 401 would give, and without spending a request.
 */
/** The API key given, and where: --api-key, then ICCID_API_KEY, then the config file; undefined when none is. */
export function findApiKey(options: GlobalOptions, env: NodeJS.ProcessEnv, config: Config): Resolved | undefined {
  return (
    (options.apiKey && { value: options.apiKey, source: "--api-key" }) ||
    (env.ICCID_API_KEY && { value: env.ICCID_API_KEY, source: "ICCID_API_KEY" }) ||
    (config.api_key && { value: config.api_key, source: "the config file (api_key)" }) ||
    undefined
  );
}

export function resolveApiKey(options: GlobalOptions, env: NodeJS.ProcessEnv, config: Config): Resolved {
  const found = findApiKey(options, env, config);
  if (!found) {
    throw new CredentialsError(
      "no API key: pass --api-key, set ICCID_API_KEY, or run `iccid config set api_key <key>` (or `iccid login` then `iccid keys create --save`)",
    );
  }
  if (!isWellFormedApiKey(found.value)) {
    throw new CredentialsError(`the API key from ${found.source} is not a valid ICCID Lookup key (mistyped or truncated?)`);
  }
  return found;
}

/** Shows enough of a key to recognise it and not enough to use it. */
export function maskApiKey(key: string): string {
  if (key.length <= 12) return "****";
  return `${key.slice(0, 10)}…${key.slice(-4)}`;
}
