import { randomUUID } from "node:crypto";
import { isWellFormedApiKey } from "@iccid/core/grammar";
import { Agent, type Dispatcher } from "undici";
import { ApiKeyError } from "./errors.js";
import { AuditResource } from "./resources/audit.js";
import { EidResource } from "./resources/eid.js";
import { IccidResource } from "./resources/iccid.js";
import { KeysResource } from "./resources/keys.js";
import { SessionResource } from "./resources/session.js";
import { UsageResource } from "./resources/usage.js";
import { checkedBody, type ResponseSchema } from "./response-body.js";
import { callWithRetries, DEFAULT_RETRY_DELAYS, type RetryDelays, type RetryEvent, type SharedBackoff } from "./retry.js";
import { SessionCookie } from "./session-cookie.js";
import { exchange, readBytes, readText, type HttpRequest, type HttpResponse } from "./transport.js";
import { SDK_VERSION } from "./version.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

export interface ClientOptions {
  /** Default: `ICCID_API_KEY`. Needed for lookups and usage; the session and key endpoints use a login. */
  apiKey?: string | undefined;
  /** Default: `ICCID_BASE_URL`, else `http://127.0.0.1:8080`. A trailing `/api/v1` is accepted. */
  baseUrl?: string | undefined;
  /** Per attempt, headers and body together. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Limit for a whole call, retries and waits included. Default: none. */
  deadlineMs?: number | undefined;
  /** An undici dispatcher (a proxy agent, a MockAgent). Default: a keep-alive Agent owned by the client. */
  dispatcher?: Dispatcher | undefined;
  /** Sent as `User-Agent`. Default `iccid-sdk-node/<version> node/<version>`. */
  userAgent?: string | undefined;
  /** A session value saved from `client.session.token`, to resume a login in a new process. */
  sessionToken?: string | undefined;
  /** Backoff bounds; see RetryDelays. */
  retryDelays?: Partial<RetryDelays> | undefined;
  /**
   * false: a 429 `rate_limited` is thrown at once (its `retryAfterMs` says how long to wait) instead of
   * waited out; 5xx, 408 and lost connections are still retried, `Retry-After` or not. Default true.
   */
  retryRateLimited?: boolean | undefined;
  /** Called before each wait for a retry, e.g. to tell a person why nothing seems to happen. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** Options every method takes as its last argument; they override the client's for that call. */
export interface RequestOptions {
  timeoutMs?: number | undefined;
  deadlineMs?: number | undefined;
  maxRetries?: number | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Ends the call's waits between attempts, but not an attempt already sent: when it fires while the call
   * waits to try again (a 429, a 5xx, a lost connection), the call throws APIUserAbortError at once; an
   * response on its way is still taken. For a caller that stops without losing what the server charged.
   */
  retrySignal?: AbortSignal | undefined;
  /**
   * The Idempotency-Key of a call that creates or charges (lookup, batch, keys.create): 1 to 255 printable
   * ASCII characters. Default: a random UUID made for the call. Every retry of the call sends the same key,
   * so the server runs it once; pass your own to make a call again later (after a crash) without paying twice.
   */
  idempotencyKey?: string | undefined;
}

/** 1 to 255 printable ASCII characters, as the server takes an Idempotency-Key. */
const WELL_FORMED_IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** @internal How a resource method describes its request. */
export interface RequestSpec {
  method: HttpRequest["method"];
  /** Below `/api/v1`, already path-encoded. */
  path: string;
  query?: URLSearchParams | undefined;
  body?: unknown;
  auth: "api_key" | "session" | "none";
  /** false for calls that must not run twice (rolling a key). */
  retry?: boolean;
  /** Sends an Idempotency-Key, the same on every retry: the server answers a retry of a call it ran already without running it again. */
  idempotent?: boolean;
  backoff?: SharedBackoff | undefined;
  /** The Accept header, when the call asks for another form than JSON (the batch as CSV). */
  accept?: string;
}

/** @internal A request and the contract its response's body is checked against. */
export interface CallSpec<T> extends RequestSpec {
  schema: ResponseSchema<T>;
}

/** @internal A request whose response has no body (204). */
export interface NoContentSpec extends RequestSpec {
  schema: null;
}

function env(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`baseUrl must use http or https, got ${JSON.stringify(raw)}`);
  }
  return url;
}

function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return randomUUID();
  if (typeof given !== "string" || !WELL_FORMED_IDEMPOTENCY_KEY.test(given)) {
    throw new TypeError("idempotencyKey must be 1 to 255 printable ASCII characters");
  }
  return given;
}

function masked(key: string): string {
  return key.length > 10 ? `${key.slice(0, 8)}…(${key.length} characters)` : JSON.stringify(key);
}

export class IccidClient {
  readonly baseUrl: string;
  readonly iccid: IccidResource;
  readonly eid: EidResource;
  readonly usage: UsageResource;
  readonly session: SessionResource;
  readonly keys: KeysResource;
  readonly audit: AuditResource;

  private readonly apiKey: string | undefined;
  private readonly origin: string;
  /** The base URL's path, if any, then `/api/v1`. */
  private readonly apiPath: string;
  private readonly host: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownedAgent: Agent | undefined;
  private readonly userAgent: string;
  private readonly defaults: { timeoutMs: number; maxRetries: number; deadlineMs: number | undefined };
  private readonly retryDelays: RetryDelays;
  private readonly retryRateLimited: boolean;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private checkedKey: string | undefined;
  /** @internal */
  readonly cookie: SessionCookie;

  constructor(options: ClientOptions = {}) {
    this.apiKey = options.apiKey?.trim() || env("ICCID_API_KEY");
    const url = parseBaseUrl(options.baseUrl ?? env("ICCID_BASE_URL") ?? DEFAULT_BASE_URL);
    const prefix = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
    this.baseUrl = url.origin + prefix;
    this.origin = url.origin;
    this.apiPath = `${prefix}/api/v1`;
    this.host = url.host;
    this.ownedAgent = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000 });
    this.dispatcher = options.dispatcher ?? this.ownedAgent!;
    this.userAgent = options.userAgent ?? `iccid-sdk-node/${SDK_VERSION} node/${process.version}`;
    this.defaults = {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      deadlineMs: options.deadlineMs,
    };
    this.retryDelays = { ...DEFAULT_RETRY_DELAYS, ...options.retryDelays };
    this.retryRateLimited = options.retryRateLimited ?? true;
    this.onRetry = options.onRetry;
    this.cookie = new SessionCookie(options.sessionToken);
    this.iccid = new IccidResource(this);
    this.eid = new EidResource(this);
    this.usage = new UsageResource(this);
    this.session = new SessionResource(this);
    this.keys = new KeysResource(this);
    this.audit = new AuditResource(this);
  }

  /** @internal Sends one API call with retries and checks the response against the contract. */
  call<T>(spec: CallSpec<T>, options?: RequestOptions): Promise<T>;
  call(spec: NoContentSpec, options?: RequestOptions): Promise<void>;
  async call<T>(spec: CallSpec<T> | NoContentSpec, options: RequestOptions = {}): Promise<T | void> {
    const { status, headers, body } = await this.send(spec, options);
    if (spec.schema === null) return;
    return checkedBody(spec, spec.schema, { status, headers, body: readText(body) });
  }

  /**
   * @internal Sends one API call with retries, like call(), and returns the body's bytes, undecoded:
   * the caller parses and checks them (checkedBody) when it needs the value. batchAll holds several
   * responses before their turn, and a Buffer waits outside the JS heap, where a thousand parsed items would
   * outlive young-generation GCs and fill the old generation. Error statuses throw as in call().
   */
  async callBytes(spec: RequestSpec, options: RequestOptions = {}): Promise<HttpResponse<Buffer>> {
    const response = await this.send(spec, options);
    return { ...response, body: readBytes(response.body) };
  }

  private async send(spec: RequestSpec, options: RequestOptions): Promise<HttpResponse<Buffer>> {
    const headers: Record<string, string> = { accept: spec.accept ?? "application/json", "user-agent": this.userAgent };
    if (spec.auth === "api_key") headers.authorization = `Bearer ${this.checkedApiKey()}`;
    const cookie = spec.auth === "session" ? this.cookie.header() : undefined;
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }
    if (spec.idempotent) headers["idempotency-key"] = idempotencyKey(options.idempotencyKey);
    const query = spec.query?.toString();
    const req: HttpRequest = { method: spec.method, origin: this.origin, path: `${this.apiPath}${spec.path}${query ? `?${query}` : ""}`, headers, body };

    const response = await callWithRetries(
      {
        host: this.host,
        maxRetries: spec.retry === false ? 0 : (options.maxRetries ?? this.defaults.maxRetries),
        timeoutMs: options.timeoutMs ?? this.defaults.timeoutMs,
        deadlineMs: options.deadlineMs ?? this.defaults.deadlineMs,
        delays: this.retryDelays,
        retryRateLimited: this.retryRateLimited,
        signal: options.signal,
        retrySignal: options.retrySignal,
        backoff: spec.backoff,
        onRetry: this.onRetry,
      },
      (limits) => exchange(this.dispatcher, this.host, req, limits, options.signal),
    );
    this.cookie.update(response.setCookie);
    return response;
  }

  /** Closes the client's own connection pool (a dispatcher you passed in is left to you). */
  async close(): Promise<void> {
    await this.ownedAgent?.close();
  }

  private checkedApiKey(): string {
    const key = this.apiKey;
    if (key !== undefined && key === this.checkedKey) return key; // the checksum is computed once, not per call
    if (!key) {
      throw new ApiKeyError("missing_api_key", "no API key: pass { apiKey } to new IccidClient() or set ICCID_API_KEY");
    }
    if (!isWellFormedApiKey(key)) {
      throw new ApiKeyError(
        "invalid_api_key",
        `the API key ${masked(key)} is not a well-formed ICCID Lookup key (iccid_ + 28 base62 characters ending in a checksum); check it for a typo or truncation`,
      );
    }
    this.checkedKey = key;
    return key;
  }
}
