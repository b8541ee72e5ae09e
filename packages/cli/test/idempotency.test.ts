import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { luhnCheckDigit } from "@iccid/core";
import { IccidClient } from "@iccid/sdk";
import { startTestServer, TcpRelay, type TestServer } from "@iccid/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iccid, serverEnv, tempDir } from "./harness.js";

// Idempotency keys through the built binary: `iccid batch` asks for each chunk under a key made from the
// chunk, so when the connection is lost after the server answered (and charged) a chunk but before the
// CLI got it, `--resume` asks again and is answered from what the server kept: the account pays for that
// chunk once. `iccid keys create` whose answer was lost says which key to roll.
let server: TestServer;
let relay: TcpRelay;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ plan: { rate_limit: 100_000, monthly_lookups: 10_000_000 } });
  const { hostname, port } = new URL(server.url);
  relay = await TcpRelay.start(hostname, Number(port));
  dir = tempDir("iccid-idempotent-");
});
afterAll(async () => {
  await relay?.close();
  await server?.close();
});

const iccidOf = (n: number) => {
  const body = "89441" + String(n).padStart(13, "0");
  return body + luhnCheckDigit(body);
};

async function usage(apiKey: string): Promise<{ used: number; requests: number }> {
  const client = new IccidClient({ apiKey, baseUrl: server.url });
  try {
    const report = await client.usage.get();
    return { used: report.quota.used, requests: report.totals.requests };
  } finally {
    await client.close();
  }
}

describe("iccid batch --resume after a lost answer", () => {
  it.each(["csv", "jsonl"] as const)("charges the chunk the server answered once (%s output)", async (format) => {
    const account = await server.createAccount();
    const iccids = Array.from({ length: 2500 }, (_, i) => iccidOf((format === "csv" ? 0 : 10_000) + i + 1));
    const input = join(dir, `${format}-in.csv`);
    const out = join(dir, `${format}-out.${format}`);
    writeFileSync(input, ["iccid,ref", ...iccids.map((value, i) => `${value},r${i + 1}`)].join("\n") + "\n");
    const args = ["batch", input, "--out", out, "--format", format, "--concurrency", "1"];

    // The first chunk reaches the server, which answers and charges it; the answer is cut on its way
    // back, and the network stays down, so the CLI's retries find nobody.
    const sprung = relay.trapsSprung;
    relay.cutAt('"iccids"', "after", { thenDown: true });
    const first = await iccid(args, { env: serverEnv(`http://127.0.0.1:${relay.port}`, account.apiKey) });
    relay.refuse(false);
    expect(relay.trapsSprung).toBe(sprung + 1);
    expect(first.code).not.toBe(0);
    expect(await usage(account.apiKey)).toEqual({ used: 1000, requests: 1 });

    const second = await iccid([...args, "--resume"], { env: serverEnv(`http://127.0.0.1:${relay.port}`, account.apiKey) });
    expect(second.stderr).not.toMatch(/error/i);
    expect(second.code).toBe(0);
    // The first chunk was answered from what the server kept: 2500 lookups in three requests, not 3500 in four.
    expect(await usage(account.apiKey)).toEqual({ used: 2500, requests: 3 });
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    const rows = format === "csv" ? lines.slice(1).map((line) => line.split(",")[2]) : lines.map((line) => (JSON.parse(line) as { result: { iccid: string } }).result.iccid);
    expect(rows).toEqual(iccids);
  });
});

describe("iccid keys create after a lost answer", () => {
  it("says the key was created and its secret lost, naming the key to roll; one key exists", async () => {
    const account = await server.createAccount();
    const env = { ICCID_BASE_URL: `http://127.0.0.1:${relay.port}`, ICCID_CONFIG_DIR: tempDir() };
    expect((await iccid(["login", "--email", account.email, "--password-stdin"], { env, input: account.password + "\n" })).code).toBe(0);
    // The server creates the key; its answer is cut, and the SDK's retry under the same key is a replay.
    const sprung = relay.trapsSprung;
    relay.cutAt('"name":"laptop"', "after");
    const created = await iccid(["keys", "create", "--name", "laptop"], { env });
    expect(relay.trapsSprung).toBe(sprung + 1);
    expect(created.code).toBe(1);
    const list = JSON.parse((await iccid(["keys", "list", "--json"], { env })).stdout) as Array<{ id: string; name: string | null }>;
    const laptop = list.filter((k) => k.name === "laptop");
    expect(laptop).toHaveLength(1);
    expect(created.stderr).toContain(`the key ${laptop[0]!.id} was created, but its secret was lost with the first answer: roll it with \`iccid keys roll ${laptop[0]!.id}\``);
    expect(created.stdout).toBe("");
  });
});
