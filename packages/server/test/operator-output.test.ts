import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/open.js";
import { onTerminal, SERVER_BIN } from "../test-support/index.js";

// What the operator's lists print of names kept from elsewhere: a name holding escape sequences (an
// issuer prefix imported before names were checked, or from an export) shows them written out, into a
// pipe and on a terminal, and never reaches the terminal raw.
const EVIL = "Evil\x1b]0;owned\x07\x1b[2J\u202eMVNO";
const SHOWN = "Evil\\x1B]0;owned\\x07\\x1B[2J\\u202EMVNO";
let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-op-output-"));
  db = join(dir, "iccid.db");
  const store = openStore(db);
  await store.migrate();
  await store.upsertCustomPrefixes([{ prefix: "8944999", name: EVIL, country_iso2: null }]);
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("names the operator's lists print", () => {
  it("show their control characters written out, into a pipe and on a terminal", () => {
    const piped = spawnSync(process.execPath, [SERVER_BIN, "issuers", "list", "--db", db], { encoding: "utf8" });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain(SHOWN);
    const [command, argv] = onTerminal([process.execPath, SERVER_BIN, "issuers", "list", "--db", db], 120);
    const shown = spawnSync(command, argv, { encoding: "utf8" }).stdout;
    expect(shown).toContain(SHOWN);
    for (const out of [piped.stdout, shown]) expect(out).not.toMatch(/[\x07\x1b\u202e]/);
  });

  it("refuse a control character in an imported name or a key's name, as the API does", () => {
    const run = (args: string[]) => spawnSync(process.execPath, [SERVER_BIN, ...args, "--db", db], { encoding: "utf8", input: "8944998,Bad\x1b[2JName\n" });
    expect(run(["account", "create", "--email", "names@example.test"]).status).toBe(0);
    expect(run(["key", "create", "--email", "names@example.test", "--name", "ci\x1b[2J"])).toMatchObject({ status: 2, stderr: "iccid-server: --name must not contain control characters\n" });
    expect(run(["issuers", "import", "-"])).toMatchObject({ status: 1, stderr: expect.stringMatching(/line 1: name must not contain control characters/) });
  });
});
