import type { IccidClient } from "@iccid/sdk";
import type { Config } from "./config-schema.js";
import { readConfig } from "./config.js";
import { findApiKey, resolveApiKey, resolveBaseUrl, resolveTimeoutMs, type GlobalOptions, type Resolved } from "./credentials.js";
import type { ExitCode } from "./exit-codes.js";
import { terminalColumns } from "./output/table.js";
import { reflowHelp } from "./output/wrap.js";
import { retryNote } from "./retry-note.js";
import type { Terminal } from "./terminal.js";
import { CLI_VERSION } from "./version.js";

const USER_AGENT = `iccid-cli/${CLI_VERSION} node/${process.version}`;

// The SDK (undici, the response schemas) is loaded on first use: `validate`, `config` and `--help` start
// in a fraction of the time without it.
const loadSdk = () => import("@iccid/sdk");

/**
 * What every command needs from the outside world, built once per invocation by program.ts: the
 * terminal, the global flags, the config file (read lazily: `validate` never touches it) and clients.
 */
export class CommandContext {
  /** The exit status a command asked for without failing (e.g. "some rows failed"). */
  exitCode: ExitCode | undefined;
  private configRead: Promise<Config> | undefined;
  private readonly clients: IccidClient[] = [];

  constructor(
    readonly term: Terminal,
    /** The global flags, read after commander has parsed them. */
    readonly globals: () => GlobalOptions,
  ) {}

  setExitCode(code: ExitCode): void {
    this.exitCode = code;
  }

  /** A help footer reflowed for the terminal's width (80 columns when it has none, as commander's help). */
  helpFooter(text: string): string {
    return reflowHelp(text, terminalColumns(this.term.stdout, this.term.env) ?? 80);
  }

  config(): Promise<Config> {
    return (this.configRead ??= readConfig(this.term.env));
  }

  async baseUrl(): Promise<string> {
    return resolveBaseUrl(this.globals(), this.term.env, await this.config()).value;
  }

  /**
   * What every client gets: the timeout, the retry note, and with --no-wait no retrying a 429
   * `rate_limited`. Only that: a 503 or a lost connection is still retried, it is not about the pace.
   */
  private clientOptions() {
    const timeoutMs = resolveTimeoutMs(this.globals(), this.term.env);
    return {
      userAgent: USER_AGENT,
      onRetry: retryNote(this.term),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(this.globals().wait === false ? { retryRateLimited: false } : {}),
    };
  }

  /** A client with the resolved API key, for lookups and usage; fails offline when there is no usable key. */
  async apiClient(): Promise<IccidClient> {
    const config = await this.config();
    const apiKey = resolveApiKey(this.globals(), this.term.env, config).value;
    const { IccidClient } = await loadSdk();
    return this.track(new IccidClient({ apiKey, baseUrl: await this.baseUrl(), ...this.clientOptions() }));
  }

  /** The API key given (flag, variable, config), undefined when none is; not checked. */
  async apiKey(): Promise<Resolved | undefined> {
    return findApiKey(this.globals(), this.term.env, await this.config());
  }

  /** Whether a web session is stored for this base URL (`iccid login`). */
  async signedIn(): Promise<boolean> {
    return (await this.config()).session?.base_url === (await this.baseUrl());
  }

  /** A client carrying the stored web session, which is only ever sent back to the server that issued it. */
  async sessionClient(): Promise<IccidClient> {
    const config = await this.config();
    const baseUrl = await this.baseUrl();
    const sessionToken = config.session?.base_url === baseUrl ? config.session.cookie : undefined;
    const { IccidClient } = await loadSdk();
    return this.track(new IccidClient({ baseUrl, sessionToken, ...this.clientOptions() }));
  }

  /** Closes every client made, so that keep-alive sockets do not hold the process open. */
  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.close()));
  }

  private track(client: IccidClient): IccidClient {
    this.clients.push(client);
    return client;
  }
}
