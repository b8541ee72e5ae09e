// The Node matrix of `npm test`: after the whole suite on the Node that runs it, the suites that depend on
// Node itself (MATRIX_PROJECTS: the packed install, the server, the CLI) run again on each Node of
// ICCID_NODE_MATRIX (default "22 24"), fetched by node-fetch.mjs, with better-sqlite3 built for each and
// put back for the running Node at the end. Each run is said with its Node, its time and its outcome.
import { spawn, spawnSync } from "node:child_process";
import { delimiter, join } from "node:path";
import { fetchNode } from "./node-fetch.mjs";
import { ensureNative } from "./native-module.mjs";
import { childEnv, relay, ROOT, say } from "./toolchain.mjs";

export const MATRIX_PROJECTS = ["packaging", "server", "cli"];

/**
 * The majors of ICCID_NODE_MATRIX (space- or comma-separated; default "22 24") but the running Node's own,
 * which the whole suite covers; throws on anything that is not a major version.
 */
export function matrixMajors(value = process.env.ICCID_NODE_MATRIX, running = process.versions.node.split(".")[0]) {
  const words = (value ?? "22 24").split(/[\s,]+/).filter(Boolean);
  const bad = words.filter((word) => !/^\d+$/.test(word));
  if (bad.length) throw new Error(`ICCID_NODE_MATRIX must list Node major versions (like "22 24"), not ${bad.map((w) => JSON.stringify(w)).join(", ")}`);
  return [...new Set(words)].filter((major) => major !== running).map(Number);
}

/** Our children's environment, on the Node in `node` (its bin/ first on the PATH, its headers as nodedir). */
function envOn(node, extra) {
  const env = childEnv(extra);
  return { ...env, PATH: [join(node.dir, "bin"), env.PATH].join(delimiter), npm_config_nodedir: node.dir };
}

/**
 * Runs MATRIX_PROJECTS on each major; answers one entry per major: `{ major, version, status, seconds }`
 * once run, or `{ major, reason }` when its Node could not be fetched.
 */
export async function runMatrix(majors, projects = MATRIX_PROJECTS) {
  const results = [];
  for (const major of majors) {
    let node;
    try {
      node = fetchNode(major, childEnv());
    } catch (error) {
      say(`--- Node ${major}: cannot fetch it: ${error.message}`);
      results.push({ major, reason: `cannot fetch it: ${error.message}` });
      continue;
    }
    const started = Date.now();
    say(`--- Node ${node.version} (NODE_MODULE_VERSION ${node.abi}), from .tools/node/${major}: ${projects.join(", ")}`);
    // The browser tests are left out here: what they test is the page in Chromium, which no Node changes.
    const env = envOn(node, { ICCID_SKIP_BUILD: "1", ICCID_SKIP_BROWSER: "1" });
    const native = spawnSync(node.bin, [join(ROOT, "scripts", "native-module.mjs")], { cwd: ROOT, env, stdio: "inherit" });
    let status = native.status ?? 1;
    if (status === 0) {
      const vitest = spawn(node.bin, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", ...projects.flatMap((p) => ["--project", p])], { cwd: ROOT, env, stdio: "inherit" });
      status = await relay(vitest);
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    say(`--- Node ${node.version}: ${status === 0 ? "passed" : `FAILED (exit ${status})`} in ${seconds} s`);
    results.push({ major, version: node.version, status, seconds });
  }
  if (majors.length) ensureNative(); // better-sqlite3 back to the running Node's build
  return results;
}
