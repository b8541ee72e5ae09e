import type { PrefixStore } from "../store/store.js";
import { LiveDecoder } from "./live-decoder.js";

/** The decoder with the operator's imported prefixes, kept current while the server runs. */
export function loadDecoder(store: PrefixStore, options: Parameters<typeof LiveDecoder.load>[1] = {}): Promise<LiveDecoder> {
  return LiveDecoder.load(store, options);
}
