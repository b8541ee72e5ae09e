import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { AnswerBytes } from "./answer-bytes.js";
import { serve } from "../../test-support/serve.js";
import { givenBackBuffer, holdSpareBuffers, largeAnswer } from "../../test-support/spare-buffers.js";

function answer(count: number, item: string) {
  return { items: Array.from({ length: count }, (_, i) => `${item}${i}`) };
}

/** The JSON of `value` written into answer bytes piece by piece, one piece per item, as the batch route does. */
function encodeJson(value: { items: string[] }, bytes = new AnswerBytes()): AnswerBytes {
  bytes.add('{"items":[');
  value.items.forEach((item, i) => bytes.add((i ? "," : "") + JSON.stringify(item)));
  bytes.add("]}");
  return bytes;
}

describe("AnswerBytes", () => {
  it("encodes a small answer as one buffer of its own, not one to give back", () => {
    const value = answer(3, "é");
    const encoded = encodeJson(value);
    expect(encoded.bytes().toString("utf8")).toBe(JSON.stringify(value));
    const body = encoded.bytes();
    encoded.release();
    // nothing was taken from the spare buffers, so nothing given back: the next large answer does not get it
    const next = encodeJson(answer(20_000, "next-"));
    expect(next.bytes().buffer).not.toBe(body.buffer);
    next.release();
  });

  it("encodes a large answer past its first buffer, in UTF-8", () => {
    // about 1.5 MB of text with two- and three-byte characters: more than the first buffer holds
    const value = answer(40_000, "€é-item-");
    const encoded = encodeJson(value);
    expect(encoded.bytes().equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    encoded.release();
  });

  it("reuses a released buffer without leaving bytes of the earlier answer in the next", () => {
    const first = encodeJson(answer(20_000, "first-answer-"));
    const firstBody = first.bytes();
    const firstBytes = Buffer.from(firstBody); // a copy: the buffer is about to be reused
    first.release();
    const smaller = answer(6_000, "second-"); // past one piece (32 K), well short of the first
    const second = encodeJson(smaller);
    expect(second.bytes().toString("utf8")).toBe(JSON.stringify(smaller));
    expect(second.bytes().buffer).toBe(firstBody.buffer);
    expect(firstBytes.toString("utf8")).toBe(JSON.stringify(answer(20_000, "first-answer-")));
    second.release();
  });

  it("does not hand out a buffer that was not given back, and gives one back once only", () => {
    const held = encodeJson(answer(20_000, "held-"));
    const other = encodeJson(answer(20_000, "other-"));
    expect(other.bytes().buffer).not.toBe(held.bytes().buffer);
    expect(held.bytes().toString("utf8")).toBe(JSON.stringify(answer(20_000, "held-")));
    held.release();
    held.release();
    const a = encodeJson(answer(20_000, "a-"));
    const b = encodeJson(answer(20_000, "b-"));
    expect(a.bytes().buffer).not.toBe(b.bytes().buffer);
    for (const bytes of [other, a, b]) bytes.release();
  });
});

describe("AnswerBytes made for a response", () => {
  it("are given back when the response closes, sent in full or cut by the client", async () => {
    const { connect } = await import("node:net");
    // Each request writes a large answer into bytes made for its response, then sends it: to a client that
    // reads it, or to one that hangs up without reading.
    const { server, port, close } = await serve((req, res) => res.end(encodeJson(answer(20_000, `${req.url}-`), new AnswerBytes(res)).bytes()));
    const closed = () => new Promise<void>((resolve) => server.once("request", (_req, res) => res.once("close", () => setImmediate(resolve))));
    const held = holdSpareBuffers();
    try {
      for (const path of ["/sent", "/cut"]) {
        // The request's answer is written into this buffer, given back just before.
        const given = givenBackBuffer();
        const done = closed();
        const socket = connect(port, "127.0.0.1");
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
        if (path === "/cut") {
          socket.pause(); // never reads: most of the answer stays unsent, then the client goes
          setTimeout(() => socket.destroy(), 100);
        } else socket.on("data", () => socket.end());
        await done;
        socket.destroy();
        // The next large answer is written into the buffer this one gave back.
        const next = largeAnswer();
        expect(next.bytes().buffer === given, path).toBe(true);
        next.release();
        held.push(...holdSpareBuffers());
      }
    } finally {
      for (const bytes of held) bytes.discard();
      await close();
    }
  });

  it("keep their bytes whole, and their buffer from reuse, when the response closed before the bytes were taken", () => {
    const held = holdSpareBuffers();
    try {
      const given = givenBackBuffer();
      const response = new EventEmitter();
      const value = answer(20_000, "still-running-");
      const bytes = encodeJson(value, new AnswerBytes(response as ServerResponse));
      response.emit("close"); // the client left while the request went on
      // Another answer is made meanwhile: it does not get the buffer the running one writes into.
      const other = largeAnswer("other");
      expect(other.bytes().buffer).not.toBe(given);
      // The request takes its bytes at last (to keep them for a replay): whole, in the buffer it was given.
      expect(bytes.bytes().buffer).toBe(given);
      expect(bytes.bytes().toString("utf8")).toBe(JSON.stringify(value));
      held.push(other, bytes);
    } finally {
      for (const bytes of held) bytes.discard();
    }
  });
});
