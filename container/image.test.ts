import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBase } from "./base.mjs";
import { missingTools } from "./buildah.mjs";
import { buildImage, Container, freePort, imageConfig } from "./run.js";

// The image as a self-hoster gets it: the repository's Containerfile built with buildah FROM a Debian +
// Node 22 base made on this machine, then run with a host folder as /data, looked up through over HTTP
// with the owner's key from its first-start banner, stopped, started again, and misconfigured.

/** The image runs as this user; a host folder given as /data must be theirs. */
const UID = 10001;
const NUMBER = "8944500102198304826";

function seconds(from: number, to = performance.now()): string {
  return `${((to - from) / 1000).toFixed(1)} s`;
}

describe("the container image, built with buildah and run", () => {
  const containers: Container[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "iccid-container-"));
  const data = join(scratch, "data");
  let owner: { email: string; password: string; key: string } | undefined;

  beforeAll(async () => {
    const missing = missingTools();
    if (missing) throw new Error(`the container test needs buildah and debootstrap: ${missing}`);
    const started = performance.now();
    const base = await ensureBase((line) => process.stderr.write(`${line}\n`));
    const built = performance.now();
    buildImage(base);
    process.stderr.write(`container test: base ready in ${seconds(started, built)}, image built in ${seconds(built)}\n`);
    mkdirSync(data);
    chownSync(data, UID, UID);
  });

  afterAll(() => {
    for (const container of containers) container.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  function container(env: Record<string, string>, folder = data): Container {
    const made = new Container(env, folder);
    containers.push(made);
    return made;
  }

  async function lookup(port: number, key: string | undefined): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await fetch(`http://127.0.0.1:${port}/api/v1/iccid/lookup`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ iccid: NUMBER }),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  it("is what the Containerfile declares: an unprivileged user, the /data volume, a node healthcheck, iccid-server start", () => {
    const config = imageConfig();
    expect(config.User).toBe(`${UID}:${UID}`);
    expect(Object.keys(config.Volumes ?? {})).toEqual(["/data"]);
    expect(config.Healthcheck?.Test).toEqual(["CMD", "node", "/app/healthcheck.mjs"]);
    expect([...config.Entrypoint, ...config.Cmd]).toEqual(["node", "/app/packages/server/bin/iccid-server.js", "start"]);
    expect(config.Env).toEqual(expect.arrayContaining(["ICCID_HOST=0.0.0.0", "ICCID_PORT=8080", "ICCID_DB=/data/iccid.db"]));
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(["8080/tcp"]);
  });

  it("first start: the owner's credentials in its output, the database in /data, a number looked up with the owner's key", async () => {
    const port = await freePort();
    const server = container({ ICCID_PORT: String(port), ICCID_OWNER_EMAIL: "ops@example.com" }).start();
    await server.waitFor(/"msg":"listening"/);
    const banner = await server.waitFor(/First start: created the owner account[^\n]*\n\s+email:\s+(\S+)\n\s+password:\s+(\S+)\n\s+API key:\s+(\S+)\n/);
    owner = { email: banner[1]!, password: banner[2]!, key: banner[3]! };
    expect(owner.email).toBe("ops@example.com");

    const file = join(data, "iccid.db");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).uid).toBe(UID);

    const answer = await lookup(port, owner.key);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ iccid: NUMBER, valid: true, country: { iso2: "JE" }, issuer: { name: "JT", prefix: "894450" } });
    expect((await lookup(port, undefined)).status).toBe(401);

    // The image's HEALTHCHECK command, run inside the container as the engine runs it.
    const health = await server.exec(imageConfig().Healthcheck!.Test.slice(1));
    expect(health).toMatchObject({ status: 0 });

    expect(await server.stop()).toBe(0);
    expect(server.output).toMatch(/"msg":"stopping"/);
    // Secrets never reach the log: the password once (the banner), the key in the banner's two lines only.
    expect(server.output.split(owner.password).length - 1).toBe(1);
    expect(server.output.split(owner.key).length - 1).toBe(2);

    const down = await server.exec(imageConfig().Healthcheck!.Test.slice(1));
    expect(down.status).toBe(1);
    expect(down.output).toMatch(/readyz: ECONNREFUSED/);
  });

  it("a second start on the same /data: no banner, the owner's key still answers, iccid-server on PATH sees the account", async () => {
    expect(owner, "the first start gave the owner's key").toBeDefined();
    const port = await freePort();
    const server = container({ ICCID_PORT: String(port) }).start();
    await server.waitFor(/"msg":"listening"/);
    expect(server.output).not.toMatch(/First start/);
    const answer = await lookup(port, owner!.key);
    expect(answer.status).toBe(200);
    // Operator commands in the running container, on its settings (ICCID_DB among them).
    const accounts = await server.exec(["iccid-server", "account", "list"]);
    expect(accounts.status, accounts.output).toBe(0);
    expect(accounts.output).toContain("ops@example.com");
    expect(await server.stop()).toBe(0);
  });

  it("a misconfiguration ends the start, with the reason: a port that is no number", async () => {
    const server = container({ ICCID_PORT: "eighty" }).start();
    expect(await server.exit).toBe(2);
    expect(server.output).toMatch(/ICCID_PORT: must be a port number \(got "eighty"\)/);
  });

  it("a misconfiguration ends the start, with the reason: a /data the server's user may not write", async () => {
    const locked = join(scratch, "root-owned");
    mkdirSync(locked, { mode: 0o755 });
    const server = container({ ICCID_PORT: String(await freePort()) }, locked).start();
    expect(await server.exit).toBe(1);
    expect(server.output).toMatch(/EACCES: permission denied, open '\/data\/iccid\.db/);
  });
});
