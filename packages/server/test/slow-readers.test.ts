import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killServerProcesses, neverReading, ownerCredentials, rawJsonPost, splitResponses, startServerProcess, type ServerProcess } from "../test-support/index.js";
import { boundedMemoryNodeOptions } from "../test-support/young-generation.js";
import { eventually } from "./eventually.js";
import { call } from "./http.js";

// Clients that send and never read, against the built server in a process of its own, whose memory is
// read from /proc.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-slow-readers-"));
});
afterAll(() => {
  killServerProcesses();
  rmSync(dir, { recursive: true, force: true });
});

/** Resident memory of a process, in MiB. */
function rssMib(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/** The largest a TCP socket buffer grows to, from /proc/sys/net/ipv4 (`tcp_rmem` or `tcp_wmem`: min, default, max). */
function maxBuffer(name: "tcp_rmem" | "tcp_wmem"): number {
  return Number(readFileSync(`/proc/sys/net/ipv4/${name}`, "utf8").trim().split(/\s+/)[2]);
}

/** One 1,000-item batch (one ICCID repeated: one lookup charged, an answer of about 450 KB), as raw HTTP. */
function batchRequest(key: string): string {
  return rawJsonPost("/api/v1/iccid/batch", key, JSON.stringify({ iccids: Array.from({ length: 1000 }, () => "89441000000000000018") }));
}

/** Whether the bytes are whole answers, the last one included: read a character per byte (latin1), as Content-Length counts. */
function wholeAnswers(received: Buffer): boolean {
  try {
    splitResponses(received.toString("latin1"));
    return true;
  } catch {
    return false;
  }
}

function metric(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("clients that never read", () => {
  it("hold one answer each: the next requests wait unread, the connection is reset after the send timeout, and past the limit new work gets 503", async () => {
    const server = await startServerProcess(join(dir, "pipelined.db"), {
      args: ["--send-timeout", "3", "--unsent-limit", "1", "--metrics-port", "0"],
      env: { NODE_OPTIONS: boundedMemoryNodeOptions() },
    });
    const unsentLimit = 1024 * 1024; // --unsent-limit is in MiB
    const scrape = /"metrics":"(http:[^"]+)"/.exec(server.stdout())![1]!;
    const { key } = await ownerCredentials(server);
    const batch = batchRequest(key);
    // Warm: one batch read normally, so the baseline has the buffers and code a batch needs.
    const warm = await call(server.url, "POST", "/api/v1/iccid/batch", { key, raw: batch.slice(batch.indexOf("\r\n\r\n") + 4), headers: { "content-type": "application/json" } });
    expect(warm.status).toBe(200);
    const answerBytes = Buffer.byteLength(warm.text);
    const before = rssMib(server.child.pid!);

    // Connections that each pipeline more batches than the kernel can take for them (on loopback, the
    // client's receive buffer and the server's send buffer, at most tcp_rmem's and tcp_wmem's maxima), so
    // that an answer of each is left waiting in the server; no more than the plan's 600 requests a minute.
    const kernelBytes = maxBuffer("tcp_rmem") + maxBuffer("tcp_wmem");
    const pipelined = Math.ceil(kernelBytes / answerBytes) + 10;
    const connections = Math.min(6, Math.floor(590 / pipelined));
    expect(connections * answerBytes).toBeGreaterThan(unsentLimit); // their waiting answers pass the limit
    const clients = await Promise.all(Array.from({ length: connections }, () => neverReading(server.url, batch.repeat(pipelined))));

    // Past 1 MiB of unsent answers, new work is refused: a problem with Retry-After.
    let refused = await call(server.url, "GET", "/healthz");
    await eventually(async () => {
      refused = await call(server.url, "GET", "/healthz");
      expect(refused.status).toBe(503);
    });
    expect(refused.headers["retry-after"]).toBe("1");
    expect(refused.body).toMatchObject({ code: "unavailable", request_id: refused.headers["x-request-id"] });
    expect(refused.body.detail).toMatch(/not read/);

    // The server holds one answer per connection, not all it was asked for: bounded memory.
    const grown = rssMib(server.child.pid!) - before;
    expect(grown).toBeLessThan(48);

    // After the send timeout the server answers again: the connections that held an answer are reset.
    await eventually(async () => expect((await call(server.url, "GET", "/healthz")).status).toBe(200));
    // Read at last, each connection ends without all its answers. One that held an answer was reset: its
    // last answer is cut short. One whose requests came after the limit was passed got 503s, which the
    // kernel took: it held nothing, and ends on a whole answer. Enough were reset to have held
    // more than the limit, and each reset was counted.
    for (const c of clients) c.socket.resume();
    const ended = await Promise.all(clients.map((c) => c.ended));
    for (const received of ended) expect(received.length).toBeLessThan(pipelined * answerBytes);
    const resets = ended.filter((received) => !wholeAnswers(received)).length;
    expect(resets).toBeGreaterThanOrEqual(Math.ceil(unsentLimit / (answerBytes + 1024))); // an answer with its head
    const text = await (await fetch(scrape)).text();
    expect(metric(text, "iccid_http_connections_dropped_total")).toBe(resets);

    // The batches behind each stuck answer were never read, so never handled or charged.
    const usage = await call(server.url, "GET", "/api/v1/usage", { key });
    expect(usage.body.totals.requests).toBe(usage.body.totals.lookups);
    expect(usage.body.totals.requests).toBeLessThan(1 + connections * pipelined);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("a stop does not wait on answers whose client closed without reading them", async () => {
    const server: ServerProcess = await startServerProcess(join(dir, "closed.db"));
    const { key } = await ownerCredentials(server);
    const socket = createConnection({ port: server.port, host: "127.0.0.1" });
    await once(socket, "connect");
    socket.write(batchRequest(key).repeat(20));
    // The first answer has begun: the client closes, nothing read.
    await once(socket, "data");
    socket.destroy();

    const asked = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    // Well within the 10 s a stop waits for answers in flight (it took over 11 s before).
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(server.stdout()).toMatch(/"msg":"stopped"/);
  });
});
