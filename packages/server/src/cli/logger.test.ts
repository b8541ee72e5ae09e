import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { commandLogger, readableLine } from "./logger.js";

function capture(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY }) as unknown as NodeJS.WriteStream & PassThrough;
  let text = "";
  stream.on("data", (chunk) => (text += chunk));
  return { stream, text: () => text };
}

describe("server logs", () => {
  it("are JSON lines with ISO times when stdout is not a terminal", () => {
    const out = capture(false);
    commandLogger({ logLevel: "info", logFormat: "auto" }, out.stream).info({ url: "http://127.0.0.1:1" }, "listening");
    const line = JSON.parse(out.text()) as { time: string; msg: string };
    expect(line.msg).toBe("listening");
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("are readable lines on a terminal, and when asked for", () => {
    for (const [isTTY, logFormat] of [[true, "auto"], [false, "pretty"]] as const) {
      const out = capture(isTTY);
      commandLogger({ logLevel: "info", logFormat }, out.stream).warn({ code: "ECONNREFUSED" }, "redis unavailable");
      expect(out.text()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z WARN  redis unavailable code=ECONNREFUSED\n$/);
    }
  });

  it("stay JSON on a terminal when asked for", () => {
    const out = capture(true);
    commandLogger({ logLevel: "info", logFormat: "json" }, out.stream).info("stopped");
    expect(JSON.parse(out.text())).toMatchObject({ msg: "stopped" });
  });

  it("show a request as method, path, status and duration", () => {
    const line = JSON.stringify({ level: 30, time: "2026-11-22T13:00:00.000Z", pid: 1, hostname: "h", request_id: "req_1", method: "GET", path: "/healthz", status: 200, ms: 2.345, msg: "request" });
    expect(readableLine(line)).toBe("2026-11-22T13:00:00.000Z INFO  GET /healthz 200 2.3 ms request_id=req_1\n");
  });

  it("never carry a URL's password, in either format", () => {
    for (const logFormat of ["json", "pretty"] as const) {
      const out = capture(false);
      const logger = commandLogger({ logLevel: "info", logFormat }, out.stream);
      logger.info({ db: "postgres://postgres:S3cretPw@db:5432/iccid" }, "listening");
      logger.warn({ err: { message: "connect to redis://:R3dis@cache:6379 failed" } }, "redis not answering");
      expect(out.text()).not.toMatch(/S3cretPw|R3dis@/);
      expect(out.text()).toContain("postgres://postgres:***@db:5432/iccid");
      expect(out.text()).toContain("redis://:***@cache:6379");
    }
  });
});
