import type { Store } from "../store/store.js";
import { IccidDecoder } from "./decoder.js";

/** The decoder with the operator's imported prefixes (read once at start-up). */
export async function loadDecoder(store: Store): Promise<IccidDecoder> {
  return new IccidDecoder(await store.listCustomPrefixes());
}
