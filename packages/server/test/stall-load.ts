import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";

/** One lookup's answer as a client saw it: its status, Retry-After, and how long it took. */
export interface TimedAnswer {
  status: number;
  ms: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

/**
 * Lookups from `clients` clients, each sending its next once its last is answered, until `stop` resolves;
 * every other client sends an Idempotency-Key. No client-side timeout short of a minute: a hang is seen
 * as a long answer, not as an error.
 */
export async function lookupsUntil(url: string, key: string, clients: number, stop: Promise<unknown>): Promise<TimedAnswer[]> {
  const answers: TimedAnswer[] = [];
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const agent = new Agent({ connections: clients, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const client = async (i: number) => {
    while (!stopped) {
      const started = performance.now();
      const res = await request(`${url}/api/v1/iccid/lookup`, {
        method: "POST",
        dispatcher: agent,
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          ...(i % 2 === 1 ? { "idempotency-key": randomUUID() } : {}),
        },
        body: JSON.stringify({ iccid: "89441000000000000018" }),
      });
      const text = await res.body.text();
      const retryAfter = res.headers["retry-after"];
      answers.push({
        status: res.statusCode,
        ms: performance.now() - started,
        retryAfter: typeof retryAfter === "string" ? retryAfter : undefined,
        code: res.statusCode === 200 ? undefined : (JSON.parse(text) as { code?: string }).code,
      });
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  await agent.close();
  return answers;
}

/**
 * Load through a fault: `warmMs` of lookups, then the fault for `faultMs` (`fault` starts it and resolves
 * to what ends it), then `afterMs` more. Answers: all of them, and those sent before and after the fault.
 */
export async function throughFault(
  url: string,
  key: string,
  { clients = 8, warmMs = 1_000, faultMs, afterMs = 2_000 }: { clients?: number; warmMs?: number; faultMs: number; afterMs?: number },
  fault: () => Promise<() => Promise<void>>,
): Promise<TimedAnswer[]> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const load = lookupsUntil(url, key, clients, stopped);
  try {
    await sleep(warmMs);
    const end = await fault();
    try {
      await sleep(faultMs);
    } finally {
      await end();
    }
    await sleep(afterMs);
  } finally {
    stop();
  }
  return load;
}

/** The answers that are neither 200 nor 503 with Retry-After within `boundMs`: none is expected. */
export function outOfBound(answers: readonly TimedAnswer[], boundMs: number): TimedAnswer[] {
  return answers.filter((a) => !(a.status === 200 || (a.status === 503 && a.retryAfter !== undefined && a.code === "unavailable")) || a.ms > boundMs);
}

/** Counts and slowest answers per status, for a test's log (what the fault cost, measured). */
export function summary(answers: readonly TimedAnswer[]): Record<number, { count: number; slowestMs: number }> {
  const by: Record<number, { count: number; slowestMs: number }> = {};
  for (const a of answers) {
    const s = (by[a.status] ??= { count: 0, slowestMs: 0 });
    s.count++;
    s.slowestMs = Math.max(s.slowestMs, Math.round(a.ms));
  }
  return by;
}
