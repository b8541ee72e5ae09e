import type { Counted, RedisIncrements } from "./redis-increments.js";

/** A lease is at most this share of the limit: for smaller limits nothing is leased, each request asks Redis. */
export const LEASE_SHARE = 1 / 1000;
/** …and never more than this many points, whatever the limit. */
export const MAX_LEASE = 1000;
/** Keys with a lease kept before idle ones are forgotten. */
const MAX_KEYS = 10_000;

/** Points of a key's counter already added in Redis, for this instance to hand out: numbers top-left+1 … top. */
interface Block {
  top: number;
  left: number;
  /** When the window these points were counted in ends, on this clock, at the earliest. */
  endsAt: number;
}

interface Lease {
  blocks: Block[];
  /** Points handed out since the last Redis call for the key: how much to lease next. */
  demand: number;
  refill: Promise<void> | undefined;
}

/**
 * Rate-limit points leased from Redis: a Redis call for a key adds, besides the points of the requests
 * waiting, up to a lease more, which this instance then hands out to the key's next requests without
 * asking Redis again (and asks for the next lease when half of it is left, before it runs out). A busy
 * account's requests then mostly decide their rate limit in-process, and go on to be charged in the same
 * grouping window instead of after a Redis round trip.
 *
 * What stays exact: every point is added in Redis before it is handed out, and only within the window it
 * was counted in, so all instances together never admit more than the limit in a window; each request is
 * told the count its point holds in Redis (remaining = limit − that count), so on one instance the fields
 * are exactly those of a Redis call per request, and a refusal is decided exactly as before (count > limit).
 * What is bounded: points leased but not used before the window ends still count, so with N instances an
 * account can be refused, and be told a remaining count lower than what was used, by at most N × lease
 * points, a lease being at most LEASE_SHARE of the limit (and MAX_LEASE). Limits under 1 / LEASE_SHARE
 * lease nothing. A lease grows with the demand it serves (twice the points handed out since the last call),
 * so an account making a few requests leases next to nothing. The window's reset is given from the
 * earliest it can end (the call's send time plus the time Redis said was left): a second early at most.
 */
export class RedisLeases {
  readonly #leases = new Map<string, Lease>();

  constructor(private readonly increments: RedisIncrements) {}

  take(key: string, points: number, ttlSeconds: number, limit: number): Promise<Counted> {
    if (maxLease(limit) < 1) return this.increments.add(key, points, ttlSeconds);
    let lease = this.#leases.get(key);
    if (!lease) {
      if (this.#leases.size >= MAX_KEYS) this.#forgetIdle();
      this.#leases.set(key, (lease = { blocks: [], demand: 0, refill: undefined }));
    }
    const now = Date.now();
    const taken = this.#fromBlocks(lease, points, now);
    if (taken) {
      if (!lease.refill && leftIn(lease, now) < this.#size(lease, limit) / 2) this.#refill(key, lease, 0, ttlSeconds, limit).catch(() => {});
      return Promise.resolve(taken);
    }
    if (!lease.refill) return this.#refill(key, lease, points, ttlSeconds, limit);
    // A lease is on its way: wait for it (no longer than a Redis call of its own would take), so points
    // are handed out in the order requests came, and count this one towards the size of the next lease.
    lease.demand += points;
    return lease.refill.then(() => this.take(key, points, ttlSeconds, limit));
  }

  /** Leases that hold nothing and wait for nothing: dropped when there are many keys. */
  #forgetIdle(): void {
    const now = Date.now();
    for (const [key, lease] of this.#leases) if (!lease.refill && leftIn(lease, now) === 0) this.#leases.delete(key);
  }

  /** Hands out `points` from the unexpired blocks, if they hold that many in one block. */
  #fromBlocks(lease: Lease, points: number, now: number): Counted | undefined {
    while (lease.blocks.length > 0 && (lease.blocks[0]!.endsAt <= now || lease.blocks[0]!.left === 0)) lease.blocks.shift();
    const block = lease.blocks[0];
    if (!block || block.left < points) return undefined;
    block.left -= points;
    lease.demand += points;
    return [block.top - block.left, block.endsAt - now];
  }

  /** The next lease: twice the demand since the last call, within the limit's share. */
  #size(lease: Lease, limit: number): number {
    return Math.min(maxLease(limit), 2 * lease.demand);
  }

  /** One Redis call adding `points` for a request (answered its count) and the next lease on top. */
  #refill(key: string, lease: Lease, points: number, ttlSeconds: number, limit: number): Promise<Counted> {
    const extra = this.#size(lease, limit);
    lease.demand = points;
    const sentAt = Date.now();
    const answer = this.increments.add(key, points + extra, ttlSeconds).then(([top, msLeft]): Counted => {
      // Points past the limit would only be refusals: those are not kept (they still count, as a refusal's do).
      const usable = Math.min(top, limit) - (top - extra);
      if (usable > 0) lease.blocks.push({ top: top - extra + usable, left: usable, endsAt: sentAt + msLeft });
      return [top - extra, msLeft];
    });
    const refill = answer.then(
      () => {},
      () => {},
    );
    lease.refill = refill;
    void refill.then(() => {
      if (lease.refill === refill) lease.refill = undefined;
    });
    return answer;
  }
}

function maxLease(limit: number): number {
  return Math.min(Math.floor(limit * LEASE_SHARE), MAX_LEASE);
}

function leftIn(lease: Lease, now: number): number {
  let left = 0;
  for (const b of lease.blocks) if (b.endsAt > now) left += b.left;
  return left;
}
