import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { killServerProcesses, startServerProcess } from "../../test-support/index.js";

// The built server pointed at a PostgreSQL database that does not exist, or at a port where no PostgreSQL
// listens: it says which, and how to make it or why it cannot reach it, without the URL's password.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;

afterAll(() => killServerProcesses());

/** A local port that refuses connections: one the system just gave out and took back. */
async function refusingPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

describe("a PostgreSQL database that does not exist or cannot be reached", { timeout: 60_000 }, () => {
  it("is named at start, with how to create it, and no password", async () => {
    const name = `iccid_missing_${randomBytes(4).toString("hex")}`;
    const db = Object.assign(new URL(PG), { username: "postgres", password: "Pw-not-shown", pathname: `/${name}` }).toString();
    const started = startServerProcess(db);
    await expect(started).rejects.toThrow(`iccid-server: PostgreSQL has no database "${name}": create it (\`createdb ${name}\``);
    await expect(started).rejects.not.toThrow(/Pw-not-shown/);
  });

  it("out of reach is named at start with why, and no password", async () => {
    const port = await refusingPort();
    const db = Object.assign(new URL(PG), { hostname: "127.0.0.1", port: String(port), password: "Pw-not-shown" }).toString();
    const started = startServerProcess(db);
    await expect(started).rejects.toThrow(`iccid-server: the store is unavailable (connect ECONNREFUSED 127.0.0.1:${port})`);
    await expect(started).rejects.not.toThrow(/Pw-not-shown/);
  });
});
