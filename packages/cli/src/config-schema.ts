import { isWellFormedApiKey } from "@iccid/core/grammar";

// The config file is a boundary (a person may edit it by hand), so it is parsed, not trusted. zod is
// not a dependency of this package, so the schema is written out here; each failure names its field.

export interface StoredSession {
  /** The session cookie as the SDK hands it back, replayed on the next invocation. */
  cookie: string;
  /** The server the session belongs to: a session is never sent to another base URL. */
  base_url: string;
  email?: string;
}

export interface Config {
  api_key?: string;
  base_url?: string;
  session?: StoredSession;
}

/** The keys `iccid config set|get` accepts (the session is managed by login/logout only). */
export const SETTABLE_KEYS = ["api_key", "base_url"] as const;
export type SettableKey = (typeof SETTABLE_KEYS)[number];

export class ConfigFieldError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`field "${field}" ${problem}`);
  }
}

/** Checks one settable value; returns a reason when it is unusable. */
export function checkSetting(key: SettableKey, value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (key === "api_key" && !isWellFormedApiKey(value)) {
    return "must be an ICCID Lookup API key (iccid_ followed by 28 letters and digits, checksum intact)";
  }
  if (key === "base_url" && !isHttpUrl(value)) return "must be an http:// or https:// URL";
  return undefined;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseSession(value: unknown): StoredSession {
  if (!isRecord(value)) throw new ConfigFieldError("session", "must be an object");
  const { cookie, base_url, email } = value;
  if (typeof cookie !== "string" || cookie === "") throw new ConfigFieldError("session.cookie", "must be a non-empty string");
  if (typeof base_url !== "string" || !isHttpUrl(base_url)) {
    throw new ConfigFieldError("session.base_url", "must be an http:// or https:// URL");
  }
  if (email !== undefined && typeof email !== "string") throw new ConfigFieldError("session.email", "must be a string");
  return email === undefined ? { cookie, base_url } : { cookie, base_url, email };
}

/** Parses the JSON value of a config file; throws ConfigFieldError naming the first bad field. */
export function parseConfig(value: unknown): Config {
  if (!isRecord(value)) throw new ConfigFieldError("(root)", "must be a JSON object");
  const config: Config = {};
  for (const [field, raw] of Object.entries(value)) {
    if (field === "session") {
      config.session = parseSession(raw);
    } else if ((SETTABLE_KEYS as readonly string[]).includes(field)) {
      const problem = checkSetting(field as SettableKey, raw);
      if (problem) throw new ConfigFieldError(field, problem);
      config[field as SettableKey] = raw as string;
    } else {
      throw new ConfigFieldError(field, `is not a known setting (known: ${SETTABLE_KEYS.join(", ")}, session)`);
    }
  }
  return config;
}
