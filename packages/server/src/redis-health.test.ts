import { EventEmitter } from "node:events";
import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import type { RedisClient } from "./redis.js";
import { RedisHealth } from "./redis-health.js";

/** A client that only says what ioredis says: its status and its events. */
class FakeRedis extends EventEmitter {
  status = "connecting";
  ready() {
    this.status = "ready";
    this.emit("ready");
  }
  lost(message: string) {
    this.status = "reconnecting";
    this.emit("error", new Error(message));
    this.emit("reconnecting");
  }
}

function watched() {
  const lines: string[] = [];
  const logger = { info: (msg: string) => lines.push(`info ${msg}`), warn: (_: unknown, msg: string) => lines.push(`warn ${msg}`) } as unknown as Logger;
  const redis = new FakeRedis();
  return { redis, lines, health: new RedisHealth(redis as unknown as RedisClient, logger) };
}

describe("RedisHealth's log", () => {
  it("says nothing of a Redis that answers from the start", () => {
    const { redis, lines, health } = watched();
    redis.ready();
    expect(health.answering).toBe(true);
    expect(lines).toEqual([]);
  });

  it("an outage from the start ends in 'shared from now on', never 'again': the limits were never shared", () => {
    const { redis, lines } = watched();
    redis.lost("connect ECONNREFUSED 127.0.0.1:6379");
    redis.ready();
    expect(lines).toEqual(["warn redis not answering: rate limits are per instance until it answers", "info redis answering: rate limits are shared from now on"]);
  });

  it("'shared again' is the end of an outage after Redis answered, connected anew or a command run", () => {
    const { redis, lines, health } = watched();
    redis.ready();
    redis.lost("Socket timeout");
    redis.ready();
    health.failed(new Error("Command timed out"));
    health.answered();
    expect(lines).toEqual([
      "warn redis not answering: rate limits are per instance until it answers",
      "info redis answering: rate limits are shared again",
      "warn redis not answering: rate limits are per instance until it answers",
      "info redis answering: rate limits are shared again",
    ]);
  });

  it("a client ready before it is watched has shared the limits already", () => {
    const redis = new FakeRedis();
    redis.status = "ready";
    const lines: string[] = [];
    const logger = { info: (msg: string) => lines.push(msg), warn: () => {} } as unknown as Logger;
    const health = new RedisHealth(redis as unknown as RedisClient, logger);
    health.failed(new Error("Command timed out"));
    health.answered();
    expect(lines).toEqual(["redis answering: rate limits are shared again"]);
  });
});
