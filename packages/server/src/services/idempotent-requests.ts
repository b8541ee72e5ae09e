import { hash } from "node:crypto";
import { IDEMPOTENCY_WINDOW_MS } from "../domain/idempotency-window.js";
import { IdempotencyKeyInUse, IdempotencyKeyReused } from "../domain/refusals.js";
import type { IdempotencyStore, Proof, ProvenRequest } from "../store/store.js";
import type { Clock } from "../time.js";

/** What a duplicate of a request in flight is told to wait, in whole seconds. */
const IN_FLIGHT_RETRY_SECONDS = 1;
/** Expired proofs of every account are deleted at most this often per instance, started by a request. */
const SWEEP_INTERVAL_MS = 60_000;
/** Proofs deleted per statement: each a short transaction, well under 20 ms. */
const SWEEP_BATCH = 300;

/** Which request an Idempotency-Key names: the account's key on one route. */
export interface IdempotentRequestId {
  accountId: string;
  /** The route's path as declared (`/api/v1/iccid/lookup`). */
  route: string;
  key: string;
}

/** The first 16 bytes of SHA-256: 128 bits, as unlikely to collide by chance as a UUID. */
function hash16(...parts: string[]): Buffer {
  return hash("sha256", parts.join("\0") + "\0", "buffer").subarray(0, 16);
}

/**
 * A request with an Idempotency-Key admitted to run, holding its key until it ends. A first run is charged
 * with its proof (`proof`) and is then `charged`; a replay (`replayed`) runs too but is charged nothing.
 * Whether a proof is there is learnt at the charge, which writes the proof or finds it, not before: a
 * first run (nearly every request) reads nothing. A request that charged nothing reads it at its end
 * (`readProof`), so that another body under the key is still refused.
 */
export class ClaimedRequest {
  /** Its charge was made, with its proof. */
  charged = false;
  /** A replay: the request was proven within the window. */
  replayed = false;
  /** For a replay, the answer its proof kept (key creation), else null: the request runs again. */
  keptAnswer: { status: number; body: string } | null = null;
  #read: Promise<ProvenRequest | undefined> | undefined;

  constructor(
    readonly key: Buffer,
    readonly fingerprint: Buffer,
    readonly at: number,
    private readonly store: IdempotencyStore,
    private readonly claims: InFlightClaims,
  ) {}

  /** The proof of this request, answered `status` and charged `lookups`. */
  proof(status: number, lookups: number, answer?: string): Proof {
    return { key: this.key, fingerprint: this.fingerprint, status, lookups, at: this.at, ...(answer === undefined ? {} : { answer }) };
  }

  /**
   * Reads the proof under the key, once: with this body, the request is a replay from now on; with another
   * body, it is refused (IdempotencyKeyReused). Answers whether a proof was there.
   */
  async readProof(): Promise<boolean> {
    this.#read ??= this.store.findProof(this.key, this.at - IDEMPOTENCY_WINDOW_MS);
    const proven = await this.#read;
    if (!proven) return false;
    if (!proven.fingerprint.equals(this.fingerprint)) throw new IdempotencyKeyReused();
    this.replayed = true;
    this.keptAnswer = proven.answer === null ? null : { status: proven.status, body: proven.answer };
    return true;
  }

  /** Frees the key: a request that charged nothing may run again, a proven one is a replay from now on. */
  end(): Promise<void> {
    return this.claims.release(this.key);
  }
}

/**
 * Idempotency keys: a request with an account's key on a route is charged once within 24 hours; the same
 * key with the same body again is a replay, however many times and on whichever instance. The same key
 * with another body is refused (IdempotencyKeyReused), and while the first is still running, a duplicate
 * is too (IdempotencyKeyInUse). What proves a request is its proof, written with its charge; a request
 * that charged nothing leaves none, and runs again when asked again.
 */
export class IdempotentRequests {
  #lastSweep = 0;
  #sweeping = false;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly claims: InFlightClaims,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the request's key; throws the refusal of a duplicate in flight. With `readFirst` (a route whose
   * replays answer a kept answer), the proof is read next, while the key is held.
   */
  async begin(id: IdempotentRequestId, body: string, readFirst = false): Promise<ClaimedRequest> {
    const at = this.clock.now();
    const key = hash16(id.accountId, id.route, id.key);
    const fingerprint = hash16(body);
    this.#sweep(at);
    const holder = await this.claims.take(key, fingerprint);
    if (holder) throw fingerprint.equals(holder) ? new IdempotencyKeyInUse(IN_FLIGHT_RETRY_SECONDS) : new IdempotencyKeyReused();
    const claimed = new ClaimedRequest(key, fingerprint, at, this.store, this.claims);
    if (readFirst) {
      await claimed.readProof().catch(async (error: unknown) => {
        await claimed.end();
        throw error;
      });
    }
    return claimed;
  }

  /** Keeps the proof of a request no charge proved (key creation), with the answer its replays get. */
  async keep(claimed: ClaimedRequest, status: number, answer: string): Promise<void> {
    await this.store.keepProof(claimed.proof(status, 0, answer));
  }

  /**
   * Deletes expired proofs now and then, beside the request that started it: batch after batch, each its
   * own short transaction, until one finds none; then frees the pages (a failure waits for the next sweep).
   */
  #sweep(at: number): void {
    if (at - this.#lastSweep < SWEEP_INTERVAL_MS || this.#sweeping) return;
    this.#lastSweep = at;
    this.#sweeping = true;
    void (async () => {
      while ((await this.store.deleteProofsBefore(at - IDEMPOTENCY_WINDOW_MS, SWEEP_BATCH)) > 0) await new Promise((resolve) => setImmediate(resolve));
      await this.store.reclaimSpace();
    })()
      .catch(() => undefined)
      .finally(() => (this.#sweeping = false));
  }
}

/**
 * The requests with an Idempotency-Key being answered right now, by their hashed key (Proof.key): the first
 * takes the key and holds it until it ends; a duplicate meanwhile learns the body of the one holding it.
 */
export interface InFlightClaims {
  /** Takes `key` for a request with `fingerprint`: undefined when taken, else the fingerprint of the request holding it. */
  take(key: Buffer, fingerprint: Buffer): Promise<Buffer | undefined>;
  release(key: Buffer): Promise<void>;
}

/**
 * The claims of one process, in memory: enough wherever one process answers for the store (SQLite, whose
 * file one server holds: store/sqlite/server-lock.ts). A claim ends with its process.
 */
export class MemoryClaims implements InFlightClaims {
  readonly #held = new Map<string, Buffer>();

  async take(key: Buffer, fingerprint: Buffer): Promise<Buffer | undefined> {
    return this.takeNow(key, fingerprint);
  }

  takeNow(key: Buffer, fingerprint: Buffer): Buffer | undefined {
    const name = key.toString("latin1");
    const holder = this.#held.get(name);
    if (holder) return holder;
    this.#held.set(name, fingerprint);
    return undefined;
  }

  async release(key: Buffer): Promise<void> {
    this.#held.delete(key.toString("latin1"));
  }
}
