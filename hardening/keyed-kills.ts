import { expect } from "vitest";
import { ownerCredentials, type ServerProcess } from "@iccid/server/testing";
import { nthIccid, pool, send } from "./support.js";

/** A small seeded generator (mulberry32): the same seed, the same kill moments. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const lookupOf = (key: string, n: number) =>
  [{ authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `kill-${n}` }, JSON.stringify({ iccid: nthIccid(n) })] as const;

/**
 * Single lookups with an Idempotency-Key each, from 8 loops, with the server SIGKILLed `rounds` times at
 * random moments (after a seeded number of answers) and started again (`start(round)`). Then every request
 * sent is sent again: one charged before (each is one lookup) must come back a replay, charged nothing, and
 * one not charged must run and be charged now. So the quota used before the replays is the number of
 * replays, every 200 answered before a kill is among them, and afterwards each request was charged once.
 */
export async function killUnderKeyedLoad(start: (round: number) => Promise<ServerProcess>, rounds: number, seed: number): Promise<string> {
  const next = random(seed);
  let server = await start(0);
  const { key } = await ownerCredentials(server);
  const sent: number[] = [];
  const answered = new Set<number>();
  let n = 0;
  for (let round = 1; round <= rounds; round++) {
    const killAfter = 5 + Math.floor(next() * 60);
    let ok = 0;
    const target = server;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (;;) {
          const i = ++n;
          sent.push(i);
          try {
            const r = await send(target.url, "POST", "/api/v1/iccid/lookup", ...lookupOf(key, i));
            if (r.status !== 200) throw new Error(`lookup ${i}: ${r.status} ${r.text}`);
            answered.add(i);
            if (++ok === killAfter) target.child.kill("SIGKILL");
          } catch (error) {
            if (!target.child.killed) throw error;
            return; // the server is gone
          }
        }
      }),
    );
    expect(await server.exited).toBeNull(); // killed, not exited
    server = await start(round);
  }

  const usage = async () => (await send(server.url, "GET", "/api/v1/usage", { authorization: `Bearer ${key}` })).body;
  const before = await usage();
  const replayed = new Set<number>();
  await pool(sent, 8, async (i) => {
    const r = await send(server.url, "POST", "/api/v1/iccid/lookup", ...lookupOf(key, i));
    expect(r.status, r.text).toBe(200);
    if (r.headers["idempotent-replayed"] === "true") replayed.add(i);
  });
  const after = await usage();
  for (const i of answered) expect(replayed.has(i), `request ${i} was answered 200 before a kill: its replay must be uncharged`).toBe(true);
  expect(before.quota.used).toBe(replayed.size);
  expect(before.totals.requests).toBe(replayed.size);
  expect(after.quota.used).toBe(sent.length);
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  return `${rounds} SIGKILLs under keyed load: ${sent.length} sent, ${answered.size} answered, ${replayed.size} charged and replayed uncharged, ${sent.length - replayed.size} run again`;
}
