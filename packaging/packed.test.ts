import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { nodedirFor } from "../scripts/node-headers.mjs";
import { hoverer } from "./hover.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const VERSION = "0.1.0"; // packages/*/package.json, one version for the four
let dir: string;
let app: string;
let sdkOnly: string;
let tarballs: string[];

// npm, its native build of better-sqlite3 and the installed commands run on the Node that runs this test,
// with its headers: the nodedir of the machine (~/.npmrc) may be another Node's, whose build this Node refuses.
const { nodedir } = nodedirFor();
const env = { ...process.env, PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), ...(nodedir ? { npm_config_nodedir: nodedir } : {}) };
const run = (command: string, args: string[], cwd = app, extra: Record<string, string> = {}) =>
  execFileSync(command, args, { cwd, encoding: "utf8", env: { ...env, ...extra }, stdio: ["ignore", "pipe", "pipe"] });
const bin = (name: string) => join(app, "node_modules", ".bin", name);
const tarball = (name: string) => tarballs.find((file) => file.endsWith(`/iccid-${name}-${VERSION}.tgz`))!;

/** An empty npm project at `path` with `files` installed into it, as a user outside this repository would. */
function installInto(path: string, files: string[]): void {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, "package.json"), JSON.stringify({ name: "scratch", private: true }));
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...files], path);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-packed-"));
  // The one command of the README: its stdout is the tarballs' paths, one a line.
  tarballs = run(process.execPath, [join(ROOT, "scripts", "pack.mjs"), "--out", join(dir, "tgz")], ROOT).trim().split("\n");
  app = join(dir, "app");
  installInto(app, tarballs);
  sdkOnly = join(dir, "sdk-only");
  installInto(sdkOnly, [tarball("core"), tarball("sdk")]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packed packages, installed with npm into an empty project", () => {
  it("are the four, at one version, each depending on the others at exactly that version", () => {
    expect(tarballs.map((file) => file.slice(file.lastIndexOf("/") + 1))).toEqual(["core", "sdk", "cli", "server"].map((name) => `iccid-${name}-${VERSION}.tgz`));
    const ranges: Record<string, string> = {};
    for (const file of tarballs) {
      const manifest = JSON.parse(run("tar", ["-xzOf", file, "package/package.json"], dir)) as { version: string; dependencies?: Record<string, string> };
      expect(manifest.version).toBe(VERSION);
      for (const [name, range] of Object.entries(manifest.dependencies ?? {})) if (name.startsWith("@iccid/")) ranges[`${file.slice(file.lastIndexOf("/") + 1)} ${name}`] = range;
    }
    expect(ranges).toEqual({
      [`iccid-sdk-${VERSION}.tgz @iccid/core`]: VERSION,
      [`iccid-cli-${VERSION}.tgz @iccid/core`]: VERSION,
      [`iccid-cli-${VERSION}.tgz @iccid/sdk`]: VERSION,
      [`iccid-server-${VERSION}.tgz @iccid/core`]: VERSION,
    });
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

  describe("iccid-server start, from the install", () => {
    let server: ChildProcess;
    let url: string;
    let key: string;
    let err = "";
    beforeAll(async () => {
      server = spawn(bin("iccid-server"), ["start", "--port", "0", "--db", join(app, "data", "iccid.db")], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      server.stderr!.on("data", (d) => (err += d));
      url = await new Promise<string>((resolve, reject) => {
        server.stdout!.on("data", (d) => {
          out += d;
          const m = /"url":"(http:[^"]+)"/.exec(out);
          if (m) resolve(m[1]!);
        });
        server.on("exit", () => reject(new Error(`iccid-server exited: ${err}`)));
      });
      // The credentials go to stderr, which may trail stdout's "listening" line: wait for them, not for a time.
      while (!/API key: +iccid_\S+\n/.test(err)) await once(server.stderr!, "data");
      key = /API key: +(iccid_\S+)/.exec(err)![1]!;
    });
    afterAll(async () => {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill("SIGKILL");
        await once(server, "exit");
      }
    });

    it("serves", async () => {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    });

    it("iccid looks up through it", () => {
      const lookup = run(bin("iccid"), ["lookup", "89441000000000000018", "--json"], app, { ICCID_API_KEY: key, ICCID_BASE_URL: url });
      expect(JSON.parse(lookup)).toMatchObject({ iccid: "89441000000000000018", valid: true });
    });

    it("the SDK, installed beside its core alone, looks up through it from an ES module and from CommonJS", () => {
      const call = "new IccidClient({ maxRetries: 0 }).iccid.lookup('8944 1000 0000 0000 0018').then((r) => console.log(r.iccid, r.valid, r.country.iso2))";
      writeFileSync(join(sdkOnly, "lookup.mjs"), `import { IccidClient } from "@iccid/sdk";\n${call};\n`);
      writeFileSync(join(sdkOnly, "lookup.cjs"), `const { IccidClient } = require("@iccid/sdk");\n${call};\n`);
      const keyed = { ICCID_API_KEY: key, ICCID_BASE_URL: url };
      expect(run("node", ["lookup.mjs"], sdkOnly, keyed)).toBe("89441000000000000018 true GB\n");
      expect(run("node", ["lookup.cjs"], sdkOnly, keyed)).toBe("89441000000000000018 true GB\n");
    });

    it("stops on SIGTERM with status 0", async () => {
      server.kill("SIGTERM");
      const [code] = await once(server, "exit");
      expect(code).toBe(0);
    });
  });
});
