import type { Redis } from "ioredis";
import { afterTwoTurns } from "../store/group-commit/grouping-window.js";

/** A counter's state after an increment: the points consumed in its window, and the ms until the window ends. */
export type Counted = [consumed: number, msBeforeNext: number];

interface Waiting {
  points: number;
  resolve: (counted: Counted) => void;
  reject: (error: unknown) => void;
}

interface Counter {
  ttlSeconds: number;
  waiting: Waiting[];
}

// For each key: open its window if it has none (the count starts at 0 and expires with the window), add the
// points of every request made meanwhile at once, and answer the count and the window's remaining time.
// The same steps as rate-limiter-flexible's own script, for many keys and many points at once.
const INCREMENT_ALL = `
local answers = {}
for i, key in ipairs(KEYS) do
  local ttlSeconds = ARGV[2 * i]
  redis.call('set', key, 0, 'EX', ttlSeconds, 'NX')
  local consumed = redis.call('incrby', key, ARGV[2 * i - 1])
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ttlSeconds)
    ttl = 1000 * ttlSeconds
  end
  answers[2 * i - 1] = consumed
  answers[2 * i] = ttl
end
return answers`;

/**
 * Rate-limit increments gathered over two turns of the event loop (store/group-commit/grouping-window.ts) and sent to Redis
 * as ONE script call: a busy account's requests of those turns move its counter once (one command, one
 * script run, one answer to parse) instead of once each. The script is atomic, so each request is then given the count it would have
 * seen alone, in arrival order (the one before it saw one point less): limits and the RateLimit fields stay
 * exact across instances.
 */
export class RedisIncrements {
  #counters = new Map<string, Counter>();
  #scheduled = false;

  constructor(private readonly redis: Redis) {
    redis.defineCommand("iccidIncrementAll", { lua: INCREMENT_ALL });
  }

  /** Adds `points` to `key` (whose window lasts `ttlSeconds`); answers the count this request leaves. */
  add(key: string, points: number, ttlSeconds: number): Promise<Counted> {
    return new Promise((resolve, reject) => {
      let counter = this.#counters.get(key);
      if (!counter) this.#counters.set(key, (counter = { ttlSeconds, waiting: [] }));
      counter.waiting.push({ points, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        afterTwoTurns(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = [...this.#counters].map(([key, { waiting, ttlSeconds }]) => ({ key, waiting, ttlSeconds, points: sumOfPoints(waiting) }));
    this.#counters = new Map();
    const args = batch.flatMap(({ points, ttlSeconds }) => [points, ttlSeconds]);
    const send = (this.redis as unknown as IncrementAll).iccidIncrementAll(batch.length, ...batch.map((b) => b.key), ...args);
    send.then(
      (answers) => batch.forEach((b, i) => answerInOrder(b.waiting, Number(answers[2 * i]) - b.points, Number(answers[2 * i + 1]))),
      (error: unknown) => {
        for (const { waiting } of batch) for (const w of waiting) w.reject(error);
      },
    );
  }
}

type IncrementAll = { iccidIncrementAll(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<unknown[]> };

function sumOfPoints(waiting: readonly Waiting[]): number {
  let sum = 0;
  for (const w of waiting) sum += w.points;
  return sum;
}

/** Each waiting request's count, in arrival order: the count before them all plus its own points and those before it. */
function answerInOrder(waiting: readonly Waiting[], consumedBefore: number, msBeforeNext: number): void {
  let consumed = consumedBefore;
  for (const w of waiting) w.resolve([(consumed += w.points), msBeforeNext]);
}
