import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { killServerProcesses, startServerProcess } from "../../test-support/index.js";

// The built server pointed at a PostgreSQL database that does not exist: it says which, and how to make
// it, without the URL's password.

const PG = process.env.ICCID_TEST_POSTGRES_URL!;

afterAll(() => killServerProcesses());

describe("a PostgreSQL database that does not exist", { timeout: 60_000 }, () => {
  it("is named at start, with how to create it, and no password", async () => {
    const name = `iccid_missing_${randomBytes(4).toString("hex")}`;
    const db = Object.assign(new URL(PG), { username: "postgres", password: "Pw-not-shown", pathname: `/${name}` }).toString();
    const started = startServerProcess(db);
    await expect(started).rejects.toThrow(`iccid-server: PostgreSQL has no database "${name}": create it (\`createdb ${name}\``);
    await expect(started).rejects.not.toThrow(/Pw-not-shown/);
  });
});
