import { nthIccid, send } from "./support.js";

/** One answer (or a failed exchange, status 0) and when it arrived, on the test's monotonic clock. */
export interface Exchange {
  at: number;
  status: number;
  code?: string;
}

/** What a stretch of the run saw: the figures a fault test reports. */
export interface Tally {
  requests: number;
  ok: number;
  status5xx: number;
  internalErrors: number;
  failedExchanges: number;
}

/**
 * Lookups sent in a loop by `workers` concurrent clients, each with a new ICCID (one lookup each), until
 * stopped. Every exchange is recorded, so a test can tally any stretch of time (before, during, after a
 * fault) and compare the 200s with what the server metered.
 */
export class LookupLoad {
  readonly exchanges: Exchange[] = [];
  #running = true;
  #next: number;
  readonly #done: Promise<void>;

  constructor(
    private readonly url: () => string,
    private readonly key: string,
    workers: number,
    firstIccid: number,
  ) {
    this.#next = firstIccid;
    this.#done = Promise.all(Array.from({ length: workers }, () => this.#worker())).then(() => {});
  }

  async #worker(): Promise<void> {
    while (this.#running) {
      const iccid = nthIccid(this.#next++);
      try {
        const r = await send(this.url(), "POST", "/api/v1/iccid/lookup", { authorization: `Bearer ${this.key}`, "content-type": "application/json" }, JSON.stringify({ iccid }));
        this.exchanges.push({ at: performance.now(), status: r.status, code: r.body?.code });
      } catch {
        this.exchanges.push({ at: performance.now(), status: 0 });
        await new Promise((resolve) => setTimeout(resolve, 20)); // the server is not answering: do not spin
      }
    }
  }

  /** Lookups answered 200: each is one lookup the server must have metered, exactly once. */
  get answered(): number {
    return this.exchanges.filter((e) => e.status === 200).length;
  }

  tally(from = 0, to = Infinity): Tally {
    const seen = this.exchanges.filter((e) => e.at >= from && e.at < to);
    return {
      requests: seen.length,
      ok: seen.filter((e) => e.status === 200).length,
      status5xx: seen.filter((e) => e.status >= 500).length,
      internalErrors: seen.filter((e) => e.status >= 500 && e.status !== 503).length,
      failedExchanges: seen.filter((e) => e.status === 0).length,
    };
  }

  /** Milliseconds from `since` to the first 200 after it (undefined if none yet). */
  firstOkAfter(since: number): number | undefined {
    const first = this.exchanges.find((e) => e.at >= since && e.status === 200);
    return first && first.at - since;
  }

  /** Resolves once `count` more 200s arrived after `since` (the service is answering again). */
  async okAfter(since: number, count = 1, timeoutMs = 30_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.exchanges.filter((e) => e.at >= since && e.status === 200).length < count) {
      if (performance.now() > deadline) {
        throw new Error(`no ${count} lookups answered within ${timeoutMs} ms after the fault cleared (answers since: ${this.#answers(since)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** "312 × 200, 40 × 429 rate_limited": what was answered since `since`, for a failure message. */
  #answers(since: number): string {
    const counts = new Map<string, number>();
    for (const e of this.exchanges) {
      if (e.at < since) continue;
      const answer = e.code ? `${e.status} ${e.code}` : String(e.status);
      counts.set(answer, (counts.get(answer) ?? 0) + 1);
    }
    return [...counts].map(([answer, n]) => `${n} × ${answer}`).join(", ") || "nothing";
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

/** Polls `path` until it answers `status`; resolves with the milliseconds that took. */
export async function waitForStatus(url: string, path: string, status: number, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const r = await send(url, "GET", path).catch(() => undefined);
    if (r?.status === status) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${path} did not answer ${status} within ${timeoutMs} ms (last: ${r?.status})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const describeTally = (t: Tally) =>
  `${t.requests} requests, ${t.ok} answered 200, ${t.status5xx} 5xx (${t.internalErrors} not 503), ${t.failedExchanges} failed exchanges`;
