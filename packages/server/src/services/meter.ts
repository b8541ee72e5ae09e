import { QuotaExceeded } from "../domain/refusals.js";
import type { MeterStore, Payer } from "../store/store.js";
import { billingPeriod, floorHour, type Clock } from "../time.js";
import type { ClaimedRequest } from "./idempotent-requests.js";

/** The status of every answer a charge is made for: a lookup's, a batch's. */
const PROVEN_STATUS = 200;

/**
 * Charges answered requests against the monthly quota and the usage counters in one store transaction,
 * at the moment the answer is decided: a refused request is never charged and no 200 goes uncounted.
 */
export class Meter {
  /** Each anchor's current period, kept until it ends. */
  readonly #periods = new Map<number, { start: number; end: number }>();

  constructor(
    private readonly store: MeterStore,
    private readonly clock: Clock,
    /** Told of every charge that went through (the metrics count lookups charged). */
    private readonly onCharged?: (lookups: number) => void,
  ) {}

  /**
   * A request sent with an Idempotency-Key (`claimed`) is charged with its proof, written in the same
   * transaction. Its proof found there already (a replay), or its charge refused over the quota while its
   * proof is there, it is a replay: charged nothing and counted nowhere; another body under its key is
   * refused (IdempotencyKeyReused). A request that charges no lookup is proven by nothing (asked again, it
   * runs again).
   */
  async charge(payer: Payer, lookups: number, claimed?: ClaimedRequest): Promise<void> {
    if (claimed?.replayed) return;
    // Nothing to prove it by: its key's proof, read first, tells a replay or another body before it is counted.
    if (claimed && lookups === 0 && (await claimed.readProof())) return;
    const now = this.clock.now();
    const period = this.#period(payer.subscription.period_anchor, now);
    const limit = payer.plan.monthly_lookups;
    const proven = claimed && lookups > 0 ? claimed : undefined;
    const outcome = await this.store.charge({
      account_id: payer.account.id,
      key_id: payer.key.id,
      period_start: period.start,
      bucket_start: floorHour(now),
      lookups,
      quota_limit: limit,
      ...(proven ? { proof: proven.proof(PROVEN_STATUS, lookups) } : {}),
    });
    if (outcome.charged) {
      if (proven) proven.charged = true;
      this.onCharged?.(lookups);
      return;
    }
    if (proven && ((await proven.readProof()) || outcome.replayed)) {
      proven.replayed = true;
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((period.end - now) / 1000));
    const remaining = Math.max(0, limit - outcome.used);
    throw new QuotaExceeded(lookups, remaining, limit, period.end, retryAfter);
  }

  #period(anchor: number, now: number): { start: number; end: number } {
    let period = this.#periods.get(anchor);
    if (period && period.start <= now && now < period.end) return period;
    if (this.#periods.size >= 10_000) this.#periods.clear();
    period = billingPeriod(anchor, now);
    this.#periods.set(anchor, period);
    return period;
  }
}
