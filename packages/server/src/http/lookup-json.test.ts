import { luhnCheckDigit } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IccidDecoder } from "../decode/decoder.js";
import { Lookups } from "../services/lookups.js";
import type { KeyGrant } from "../store/store.js";
import { batchResultJson, lookupResultJson } from "./lookup-json.js";

const decoder = new IccidDecoder([{ prefix: "8999901", name: 'Quote "and" \\ backslash ü', country_iso2: "DE" }]);
const lookups = new Lookups(decoder, { charge: async () => {} } as never);

// ICCID-like strings of every shape the grammar accepts, written with separators, padding and case.
const iccidish = fc
  .tuple(
    fc.constantFrom("8944", "894504", "8988310", "8901", "891", "8999901", "8970", "8988216", "89"),
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 10, maxLength: 20 }),
    fc.constantFrom("", "F", "FF", "a", " ", "-"),
    fc.boolean(),
  )
  .map(([prefix, digits, tail, check]) => {
    const body = (prefix + digits).slice(0, 21);
    return (check ? body + luhnCheckDigit(body) : body) + tail;
  });

describe("result serialisation", () => {
  it("writes exactly what JSON.stringify writes, for any result", () => {
    fc.assert(
      fc.property(fc.oneof(iccidish, fc.string()), (input) => {
        const out = decoder.decode(input);
        if (out.ok) expect(lookupResultJson(out.result)).toBe(JSON.stringify(out.result));
      }),
      { numRuns: 3000 },
    );
  });

  it("writes batches exactly as JSON.stringify does, duplicates and failures included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(iccidish, fc.string(), fc.constant("89441000000000000018")), { minLength: 1, maxLength: 60 }), async (inputs) => {
        const batch = await lookups.batch({} as KeyGrant, inputs);
        expect(batchResultJson(batch)).toBe(JSON.stringify(batch));
      }),
      { numRuns: 300 },
    );
  });
});
