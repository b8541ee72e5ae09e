import { BatchResult, LookupResult, type BatchItem, type BatchSummary } from "@iccid/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { IccidDecoder } from "../decode/decoder.js";
import { AnswerBytes } from "./answer-bytes.js";
import { writeBatchAnswer } from "./batch-answer.js";
import { jsonEncoding } from "./json-encoding.js";

const batchJson = jsonEncoding(BatchResult);
const lookupJson = jsonEncoding(LookupResult);

/** The answer as the batch route writes it: item by item from an iterator, into answer bytes. */
async function pieces(answer: { results: BatchItem[]; summary: BatchSummary }): Promise<string> {
  const bytes = new AnswerBytes();
  const items = (function* () {
    yield* answer.results;
    return { summary: answer.summary };
  })();
  writeBatchAnswer(items, bytes);
  const text = bytes.bytes().toString("utf8");
  bytes.release();
  return text;
}

// Strings that need escaping, that are not ASCII, or not even well-formed UTF-16.
const text = fc
  .array(fc.constantFrom("a", "8", " ", '"', "\\", "\n", "\u0000", "\u001f", "\u007f", "é", "€", "😀", "\ud800", "\udc00", "`", "${"), { maxLength: 6 })
  .map((parts) => parts.join(""));
const country = fc.record({ iso2: fc.constantFrom("GB", "DE"), name: text });
const issuer = fc.record(
  {
    prefix: text,
    name: text,
    source: fc.constantFrom("itu-e118" as const, "custom" as const),
    registered_name: text,
    origin: fc.constantFrom("itu-e118" as const, "numbering-rule" as const, "curated" as const, "custom" as const),
    confidence: fc.constantFrom("registered" as const, "inferred" as const),
    country: fc.option(fc.oneof(country, country.map((c) => Object.freeze(c))), { nil: null }),
  },
  { requiredKeys: ["prefix", "name", "source", "origin", "confidence", "country"] },
);
const digit = fc.constantFrom("0", "7");
const homeNetwork = fc.record({ mcc: fc.constantFrom("310", "234"), mnc: fc.constantFrom("410", "15") });
const candidate = fc.record({ country, issuer: fc.option(issuer, { nil: null }), home_network: fc.option(homeNetwork, { nil: null }) });
const warning = fc.record(
  {
    code: fc.constantFrom("padding_stripped" as const, "hex_digits" as const, "ambiguous_numbering" as const),
    message: text,
    candidates: fc.array(fc.oneof(candidate, candidate.map((c) => Object.freeze(c))), { maxLength: 2 }),
  },
  { requiredKeys: ["code", "message"] },
);
const result = fc.record({
  iccid: text,
  input: text,
  valid: fc.boolean(),
  length: fc.integer({ min: 0, max: 22 }),
  checks: fc.record(
    {
      format: fc.boolean(),
      luhn: fc.constantFrom("valid" as const, "invalid" as const, "not_applicable" as const),
      expected_check_digit: digit,
      missing_check_digit: digit,
    },
    { requiredKeys: ["format", "luhn"] },
  ),
  check_digit: text,
  mii: text,
  calling_code: fc.option(text, { nil: null }),
  // shared and frozen, as the decoder hands them out, or fresh
  country: fc.option(fc.oneof(country, country.map((c) => Object.freeze(c))), { nil: null }),
  issuer: fc.option(fc.oneof(issuer, issuer.map((i) => Object.freeze(i))), { nil: null }),
  home_network: fc.option(fc.oneof(homeNetwork, homeNetwork.map((h) => Object.freeze(h))), { nil: null }),
  account_number: fc.option(text, { nil: null }),
  warnings: fc.array(fc.oneof(warning, warning.map((w) => Object.freeze(w))), { maxLength: 2 }),
  data_version: text,
});
const item: fc.Arbitrary<BatchItem> = fc.oneof(
  fc.record({ index: fc.nat(), ok: fc.constant(true as const), result }),
  fc.record({ index: fc.nat(), ok: fc.constant(false as const), input: text, error: fc.record({ code: fc.constant("too_short" as const), message: text }) }),
);
const summary = fc.record({ total: fc.nat(), ok: fc.nat(), failed: fc.nat(), valid: fc.nat(), invalid: fc.nat(), unique: fc.nat() });

describe("jsonEncoding", () => {
  it("writes exactly what JSON.stringify writes, whole and in pieces", async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ results: fc.array(item, { maxLength: 24 }), summary }), async (answer) => {
        const expected = JSON.stringify(answer);
        expect(batchJson(answer)).toBe(expected);
        expect(await pieces(answer)).toBe(expected);
        // each result alone, through the compiled single-lookup encoder
        for (const item of answer.results) if (item.ok) expect(lookupJson(item.result)).toBe(JSON.stringify(item.result));
      }),
      { numRuns: 1000 },
    );
  });

  it("writes the decoder's real results as JSON.stringify does, the shared frozen parts reused", async () => {
    const decoder = new IccidDecoder();
    const inputs = ["89441000000000000018", "8944 1000 0000 0000 0018F", "8944100000000000001", "89014103211118510720", "89ABC", "12", "89882012345678901234", "89882806660004909182", "89310380123456789012", "89310260123456789012"];
    const results = [...inputs, ...inputs, ...inputs].map((input, index): BatchItem => {
      const out = decoder.decode(input);
      return out.ok ? { index, ok: true, result: out.result } : { index, ok: false, input, error: out.error };
    });
    const answer = { results, summary: { total: 30, ok: 24, failed: 6, valid: 9, invalid: 15, unique: 10 } };
    expect(batchJson(answer)).toBe(JSON.stringify(answer));
    expect(await pieces(answer)).toBe(JSON.stringify(answer));
    for (const item of results) if (item.ok) expect(lookupJson(item.result)).toBe(JSON.stringify(item.result));
  });

  it("leaves out an undefined field and writes a value not of the schema's shape as JSON.stringify does", () => {
    const odd = [null, 5, "text", [1, 2], { iccid: "894", input: undefined }, { nested: { deeper: [undefined, "é"] } }];
    for (const value of odd) expect(lookupJson(value as never)).toBe(JSON.stringify(value));
    const withOptional = jsonEncoding(z.object({ a: z.string(), b: z.number().optional(), c: z.array(z.string()) }));
    expect(withOptional({ a: "x", c: [] })).toBe('{"a":"x","c":[]}');
    expect(withOptional({ a: "x", c: ["y"] })).toBe('{"a":"x","c":["y"]}');
    expect(withOptional({ a: "x", b: Number.NaN, c: [] })).toBe('{"a":"x","b":null,"c":[]}');
  });

  it("writes numbers, enums and a field equal to the one before it as JSON.stringify does", () => {
    const numbers = jsonEncoding(z.object({ n: z.number() }));
    for (const n of [0, -0, 7, 1023, 1024, -1, 1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(numbers({ n })).toBe(JSON.stringify({ n }));
    }
    // a few values are compared one by one, more are looked up
    for (const values of [["a", "b"], ["a", "b", "c", "d", "e", "f"]] as const) {
      const enumJson = jsonEncoding(z.object({ e: z.enum(values) }));
      for (const e of [...values, "z"]) expect(enumJson({ e } as never)).toBe(JSON.stringify({ e }));
    }
    // input and iccid the same string: plain or not, the second is written as the first
    const pair = jsonEncoding(z.object({ first: z.string(), second: z.string() }));
    for (const text of ["8944", 'say "hi"', "8944", "é", "8944"]) {
      expect(pair({ first: text, second: text })).toBe(JSON.stringify({ first: text, second: text }));
      expect(pair({ first: "8944", second: text })).toBe(JSON.stringify({ first: "8944", second: text }));
    }
  });

  it("does not reuse the JSON of a frozen object whose fields are objects themselves", () => {
    const outer = jsonEncoding(z.object({ inner: z.object({ n: z.number() }) }));
    const inner = { n: 1 };
    const value = Object.freeze({ inner });
    expect(outer(value)).toBe('{"inner":{"n":1}}');
    inner.n = 2;
    expect(outer(value)).toBe('{"inner":{"n":2}}');
  });
});
