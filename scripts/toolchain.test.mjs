import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect, it } from "vitest";

const TOOLCHAIN = pathToFileURL(fileURLToPath(new URL("./toolchain.mjs", import.meta.url))).href;
let dir;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("gives pnpm the user's npm_config_* settings from `npm run`, and none of the variables npm sets about itself", () => {
  dir = mkdtempSync(join(tmpdir(), "iccid-toolchain-"));
  // A script run by npm, as `npm start` runs scripts/start.mjs: it asks pnpm, through childEnv, for a setting.
  const probe = `import(${JSON.stringify(TOOLCHAIN)}).then(({ childEnv }) => {
    const env = childEnv();
    const pnpm = require("node:child_process").spawnSync("pnpm", ["config", "get", "fetch-retries"], { env, encoding: "utf8" });
    console.log(JSON.stringify({ retries: pnpm.stdout.trim(), npm: Object.keys(env).filter((name) => /^npm_/i.test(name)).sort() }));
  })`;
  writeFileSync(join(dir, "probe.cjs"), probe);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "probe", private: true, scripts: { probe: "node probe.cjs" } }));

  const npm = spawnSync("npm", ["run", "-s", "probe"], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_fetch_retries: "7" } });

  expect(npm.stderr).toBe("");
  const { retries, npm: names } = JSON.parse(npm.stdout);
  expect(retries).toBe("7");
  expect(names).toContain("npm_config_fetch_retries");
  for (const own of ["npm_command", "npm_execpath", "npm_lifecycle_event", "npm_package_json", "npm_config_user_agent", "npm_config_local_prefix", "npm_config_npm_version"]) expect(names).not.toContain(own);
}, 60_000); // npm, node and pnpm starts on a busy machine
