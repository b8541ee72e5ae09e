import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { hoverer } from "./hover.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const PACKAGES = ["core", "sdk", "cli", "server"];
let dir: string;
let app: string;
let tarballs: string[];

const run = (command: string, args: string[], cwd = app) => execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const bin = (name: string) => join(app, "node_modules", ".bin", name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-packed-"));
  for (const name of PACKAGES) run("pnpm", ["pack", "--pack-destination", join(dir, "tgz")], join(ROOT, "packages", name));
  tarballs = readdirSync(join(dir, "tgz")).map((file) => join(dir, "tgz", file));
  app = join(dir, "app");
  run("mkdir", ["-p", app], dir);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch", private: true }));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed packages, installed with npm into an empty project", () => {
  it("carry versions, not workspace: links, in their dependencies", () => {
    for (const tarball of tarballs) {
      const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], dir)) as { dependencies?: Record<string, string> };
      for (const range of Object.values(manifest.dependencies ?? {})) expect(range).not.toMatch(/^workspace:/);
    }
  });

  it("each carries the MIT licence and a README", () => {
    for (const tarball of tarballs) {
      const files = run("tar", ["-tzf", tarball], dir).split("\n");
      expect(files, tarball).toEqual(expect.arrayContaining(["package/LICENSE", "package/README.md"]));
      expect(run("tar", ["-xzOf", tarball, "package/LICENSE"], dir)).toMatch(/^MIT License/);
    }
  });

  it("the SDK loads with require and with import", () => {
    const probe = "console.log(typeof sdk.IccidClient, sdk.luhnCheckDigit('8944100000000000001'), typeof sdk.isAPIError)";
    expect(run("node", ["-e", `const sdk = require("@iccid/sdk"); ${probe}`])).toBe("function 8 function\n");
    expect(run("node", ["--input-type=module", "-e", `import * as sdk from "@iccid/sdk"; ${probe}`])).toBe("function 8 function\n");
  });

  it("the SDK's types check strictly from CommonJS and from ES modules, and from CommonJS under node10 without esModuleInterop", () => {
    const use = `const client = new IccidClient({ apiKey: "iccid_x", maxRetries: 0 });
const lookup: Promise<LookupResult> = client.iccid.lookup("8944 1000 0000 0000 0018");
const digit: string = luhnCheckDigit("8944100000000000001");
// @ts-expect-error: the types are real, not any
const wrong: number = digit;
void lookup; void wrong;
`;
    writeFileSync(join(app, "cjs.cts"), `import { IccidClient, luhnCheckDigit, type LookupResult } from "@iccid/sdk";\n${use}`);
    writeFileSync(join(app, "esm.mts"), `import { IccidClient, luhnCheckDigit, type LookupResult } from "@iccid/sdk";\n${use}`);
    writeFileSync(join(app, "node10.ts"), `import { IccidClient, luhnCheckDigit, LookupResult } from "@iccid/sdk";\n${use}`);
    const strict = ["--noEmit", "--strict", "--target", "es2022", "--skipLibCheck", "false", "--types", "node", "--typeRoots", join(ROOT, "node_modules", "@types")];
    expect(run("node", [TSC, ...strict, "--module", "nodenext", "--moduleResolution", "nodenext", "cjs.cts", "esm.mts"])).toBe("");
    // An older CommonJS project: node10 resolution ignores `exports`, and without esModuleInterop zod's own
    // declarations do not compile (TS1259), so the SDK's declarations must never reach zod.
    const node10 = ["--module", "commonjs", "--moduleResolution", "node10", "--esModuleInterop", "false", "--listFiles"];
    const files = run("node", [TSC, ...strict, ...node10, "node10.ts"]).split("\n");
    expect(files.filter((file) => file.includes("/zod/"))).toEqual([]);
    expect(files.some((file) => file.endsWith("@iccid/sdk/dist/cjs/index.d.ts"))).toBe(true);
  }, 240_000); // two strict compiles of the SDK's declarations and their dependencies

  it("an editor shows the SDK's results as named types, with a doc comment on each field", () => {
    writeFileSync(join(app, "hover.ts"), `import { IccidClient } from "@iccid/sdk";
export async function show(client: IccidClient): Promise<void> {
  const result = await client.iccid.lookup("8944 1000 0000 0000 0018");
  const batch = await client.iccid.batch(["8944 1000 0000 0000 0018"]);
  void result.country; void batch.summary;
}
`);
    const hover = hoverer(app, "hover.ts");
    expect(hover("result")).toMatchObject({ display: "const result: LookupResult" });
    expect(hover("batch")).toMatchObject({ display: "const batch: BatchResult" });
    expect(hover("country")).toMatchObject({ display: "(property) LookupResult.country: Country | null" });
    expect(hover("country").docs).toMatch(/issuer/);
    expect(hover("summary").docs).toMatch(/counts/);
  });

  it("the server's test support is not published", () => {
    const manifest = JSON.parse(run("node", ["-p", "JSON.stringify(require('./node_modules/@iccid/server/package.json'))"])) as { exports: object };
    expect(Object.keys(manifest.exports)).toEqual(["."]);
    const server = tarballs.find((t) => /iccid-server-/.test(t))!;
    expect(run("tar", ["-tzf", server], dir).split("\n").filter((f) => /test-support|dist\/testing/.test(f))).toEqual([]);
    expect(() => run("node", ["--input-type=module", "-e", 'await import("@iccid/server/testing")'])).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it("iccid --version answers", () => {
    expect(run(bin("iccid"), ["--version"]).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("iccid-server start serves, and iccid looks up through it", async () => {
    const server = spawn(bin("iccid-server"), ["start", "--port", "0", "--db", join(app, "data", "iccid.db")], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    server.stdout.on("data", (d) => (out += d));
    server.stderr.on("data", (d) => (err += d));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.on("data", () => {
          const m = /"url":"(http:[^"]+)"/.exec(out);
          if (m) resolve(m[1]!);
        });
        server.on("exit", () => reject(new Error(`iccid-server exited: ${err}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      // The credentials go to stderr, which may trail stdout's "listening" line: wait for them, not for a time.
      while (!/API key: +iccid_\S+\n/.test(err)) await once(server.stderr, "data");
      const key = /API key: +(iccid_\S+)/.exec(err)![1]!;
      const lookup = execFileSync(bin("iccid"), ["lookup", "89441000000000000018", "--json"], { cwd: app, encoding: "utf8", env: { ...process.env, ICCID_API_KEY: key, ICCID_BASE_URL: url } });
      expect(JSON.parse(lookup)).toMatchObject({ iccid: "89441000000000000018", valid: true });
    } finally {
      server.kill("SIGTERM");
      if (server.exitCode === null) await once(server, "exit");
    }
    expect(server.exitCode).toBe(0);
  });
});
