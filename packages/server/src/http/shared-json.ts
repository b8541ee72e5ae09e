import type { Encode } from "./json-encoding.js";

/**
 * An encoder that makes the JSON of a frozen object once and hands out the same text after: the decoder
 * shares one frozen country, issuer, checks and warning object among all the results that name them. An
 * object is kept only when `unchanging` says its text cannot change: by default when it is frozen, which
 * is enough for objects of scalar fields; objects with nested members pass a deeper test. The text kept
 * is one flat run of characters: as written it is a tree of the pieces it was joined from, and every answer
 * it goes into would walk that tree again to copy it.
 */
export function sharedOnce(encode: Encode, unchanging: (value: object) => boolean = Object.isFrozen): Encode {
  const known = new WeakMap<object, string>();
  return (value) => {
    if (typeof value !== "object" || value === null) return encode(value);
    let json = known.get(value);
    if (json !== undefined) return json;
    json = encode(value);
    if (unchanging(value)) known.set(value, flat(json));
    return json;
  };
}

/** The same text as one flat string: JSON text is well-formed UTF-16, so it survives UTF-8 both ways unchanged. */
const flat = (json: string): string => Buffer.from(json, "utf8").toString("utf8");
