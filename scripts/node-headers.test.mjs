import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { configuredNodedir, headersAbi, nodedirFor } from "./node-headers.mjs";

let dir;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iccid-node-headers-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A Node install folder at dir/name: bin/node (never run here) and, for an `abi`, include/node/node_version.h of it. */
function install(name, abi) {
  const prefix = join(dir, name);
  mkdirSync(join(prefix, "bin"), { recursive: true });
  writeFileSync(join(prefix, "bin", "node"), "");
  if (abi) {
    mkdirSync(join(prefix, "include", "node"), { recursive: true });
    writeFileSync(join(prefix, "include", "node", "node_version.h"), `#define NODE_MAJOR_VERSION 1\n#define NODE_MODULE_VERSION ${abi}\n`);
  }
  return prefix;
}

it("reads the ABI of a folder's headers, and none where there are none", () => {
  expect(headersAbi(install("n22", "127"))).toBe("127");
  expect(headersAbi(install("bare"))).toBeUndefined();
});

it("keeps a configured nodedir whose headers are of the Node's ABI", () => {
  const configured = install("configured", "127");
  expect(nodedirFor({ execPath: join(install("n22", "127"), "bin", "node"), abi: "127", version: "v22.0.0", configured })).toEqual({ nodedir: configured });
});

it("builds with the Node's own headers, saying so, when the configured nodedir is another Node's", () => {
  const own = install("n22", "127");
  const chosen = nodedirFor({ execPath: join(own, "bin", "node"), abi: "127", version: "v22.0.0", configured: install("n20", "115") });
  expect(chosen.nodedir).toBe(own);
  expect(chosen.note).toBe(`nodedir ${join(dir, "n20")} holds the headers of another Node (NODE_MODULE_VERSION 115); building for Node v22.0.0 (127) with its own headers in ${own}`);
});

it("fails with the reason when the configured nodedir is another Node's and this Node ships no headers", () => {
  const execPath = join(install("bare"), "bin", "node");
  expect(() => nodedirFor({ execPath, abi: "127", version: "v22.0.0", configured: install("n20", "115") })).toThrow(
    `nodedir ${join(dir, "n20")} holds the headers of another Node (NODE_MODULE_VERSION 115), and Node v22.0.0 at ${execPath} (NODE_MODULE_VERSION 127) ships none beside it: set npm_config_nodedir`,
  );
});

it("uses the Node's own headers when no nodedir is set, and none when it ships none (node-gyp fetches them)", () => {
  const own = install("n24", "137");
  expect(nodedirFor({ execPath: join(own, "bin", "node"), abi: "137", configured: undefined })).toEqual({ nodedir: own });
  expect(nodedirFor({ execPath: join(install("bare"), "bin", "node"), abi: "137", configured: undefined })).toEqual({ nodedir: undefined });
});

it("reads the nodedir from npm_config_nodedir, else from npm's config files", () => {
  expect(configuredNodedir({ ...process.env, npm_config_nodedir: "/opt/node" })).toBe("/opt/node");
  const npmrc = join(dir, "npmrc");
  writeFileSync(npmrc, "nodedir=/opt/from-npmrc\n");
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
  expect(configuredNodedir({ ...env, npm_config_userconfig: npmrc })).toBe("/opt/from-npmrc");
  writeFileSync(npmrc, "");
  expect(configuredNodedir({ ...env, npm_config_userconfig: npmrc, npm_config_globalconfig: npmrc })).toBeUndefined();
});
