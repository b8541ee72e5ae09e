import type { PrefixStore } from "../store/store.js";
import { IccidDecoder } from "./decoder.js";

/** Where lookups get the decoder to use now. */
export interface DecoderSource {
  readonly current: IccidDecoder;
}

/** How often a server checks whether the custom prefixes changed: the bound on how late an import applies. */
export const CUSTOM_PREFIX_RECHECK_MS = 1_000;

/**
 * The decoder with the operator's custom prefixes, kept current without a restart: every `recheckMs` it
 * reads the store's custom-prefix generation (one row) and, when it moved, builds a new decoder from the
 * prefixes and swaps it in. A lookup reads `current` and never waits for a reload. Works the same for
 * every instance on one PostgreSQL: each polls the shared generation.
 */
export class LiveDecoder implements DecoderSource {
  #current: IccidDecoder;
  #generation: number;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<boolean> | undefined;

  private constructor(
    private readonly store: PrefixStore,
    decoder: IccidDecoder,
    generation: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#current = decoder;
    this.#generation = generation;
  }

  /** Reads the prefixes now and keeps them current (stop with `close`). */
  static async load(store: PrefixStore, options: { recheckMs?: number; onError?: (error: unknown) => void } = {}): Promise<LiveDecoder> {
    // The generation is read before the prefixes: a change in between is then seen again, never missed.
    const generation = await store.customPrefixGeneration();
    const live = new LiveDecoder(store, new IccidDecoder(await store.listCustomPrefixes()), generation, options.onError ?? (() => {}));
    live.#timer = setInterval(() => void live.refresh(), options.recheckMs ?? CUSTOM_PREFIX_RECHECK_MS).unref();
    return live;
  }

  get current(): IccidDecoder {
    return this.#current;
  }

  /** Reloads when the custom prefixes changed; true when it did. A failed check keeps the last decoder. */
  refresh(): Promise<boolean> {
    this.#checking ??= this.#check().finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #check(): Promise<boolean> {
    try {
      const generation = await this.store.customPrefixGeneration();
      if (generation === this.#generation) return false;
      this.#current = new IccidDecoder(await this.store.listCustomPrefixes());
      this.#generation = generation;
      return true;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }
}
