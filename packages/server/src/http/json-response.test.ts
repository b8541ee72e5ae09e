import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonEncoder } from "./json-encoder.js";
import { encodeJson } from "./json-response.js";

const list = jsonEncoder(z.object({ items: z.array(z.string()) }));

function answer(count: number, item: string) {
  return { items: Array.from({ length: count }, (_, i) => `${item}${i}`) };
}

describe("encodeJson", () => {
  it("encodes a small answer as one buffer with nothing to give back", () => {
    const value = answer(3, "é");
    const encoded = encodeJson(value, list);
    expect(encoded.body.toString("utf8")).toBe(JSON.stringify(value));
    expect(encoded.release).toBeUndefined();
  });

  it("encodes a large answer past its first buffer, in UTF-8", () => {
    // about 1.5 MB of text with two- and three-byte characters: more than the first buffer holds
    const value = answer(40_000, "€é-item-");
    const encoded = encodeJson(value, list);
    expect(encoded.body.equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    encoded.release?.();
  });

  it("reuses a released buffer without leaving bytes of the earlier answer in the next", () => {
    const first = encodeJson(answer(20_000, "first-answer-"), list);
    const firstBytes = Buffer.from(first.body); // a copy: the buffer is about to be reused
    first.release?.();
    const smaller = answer(6_000, "second-"); // past one piece (32 K), well short of the first
    const second = encodeJson(smaller, list);
    expect(second.body.toString("utf8")).toBe(JSON.stringify(smaller));
    expect(second.body.buffer).toBe(first.body.buffer);
    expect(firstBytes.toString("utf8")).toBe(JSON.stringify(answer(20_000, "first-answer-")));
    second.release?.();
  });

  it("does not hand out a buffer that was not given back", () => {
    const held = encodeJson(answer(20_000, "held-"), list);
    const other = encodeJson(answer(20_000, "other-"), list);
    expect(other.body.buffer).not.toBe(held.body.buffer);
    expect(held.body.toString("utf8")).toBe(JSON.stringify(answer(20_000, "held-")));
    held.release?.();
    other.release?.();
  });
});
