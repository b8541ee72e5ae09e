// `npm test` / `pnpm test` (and CI through .ci/run): from a fresh clone with only Node and npm, fetch
// pnpm if needed, install, make sure Chromium is there for the browser test (installing it with apt-get
// where we may), find PostgreSQL and Redis on their default local ports, build, type-check and run every
// suite the machine can run, then the Node-dependent suites again on Node 22 and 24 (node-matrix.mjs). Extra
// arguments go to vitest (`npm test -- --project cli`) and leave the matrix out. What it could not run it
// says, with the reason, before and after the run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { join } from "node:path";
import { describeSelection, projectNames, selectionLines } from "./test-selection.mjs";
import { BROWSER_TESTS } from "../packages/server/test/e2e/browser-tests.mjs";
import { PGBOUNCER, PGBOUNCER_TEST } from "../packages/server/test-support/pgbouncer-paths.mjs";
import { BUILDAH, CONTAINER_TEST, DEBOOTSTRAP } from "../container/paths.mjs";
import { ensureNative } from "./native-module.mjs";
import { matrixMajors, MATRIX_PROJECTS, runMatrix } from "./node-matrix.mjs";
import { childEnv, ensureBuilt, ensureInstalled, ensurePnpm, relay, ROOT, run, say } from "./toolchain.mjs";

const skipped = [];
const matrixRan = []; // the Node versions the matrix ran on

/**
 * Makes sure a system binary a test drives is at `path`, installing `pkg` with apt-get where we may (root,
 * or password-less sudo); answers why not when it cannot.
 */
function systemBinary(path, pkg, purpose) {
  if (existsSync(path)) return true;
  const hasApt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  const root = process.getuid?.() === 0;
  const sudo = !root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  if (hasApt && (root || sudo)) {
    say(`--- installing ${pkg} with apt-get (${purpose})`);
    const env = { ...childEnv(), DEBIAN_FRONTEND: "noninteractive" };
    const [command, prefix] = root ? ["apt-get", []] : ["sudo", ["apt-get"]];
    // Another apt-get (a colleague installing something) holds the lock for a while: wait for it.
    const apt = (args) => run(command, [...prefix, "-o", "DPkg::Lock::Timeout=600", ...args], { env, quiet: true });
    if (apt(["update", "-qq"]) === 0 && apt(["install", "-y", "-qq", pkg]) === 0 && existsSync(path)) return true;
  }
  return !hasApt ? "no apt-get on this machine" : !(root || sudo) ? "not root and no password-less sudo" : `apt-get install ${pkg} failed`;
}

function chromium() {
  const path = process.env.ICCID_CHROMIUM ?? "/usr/bin/chromium";
  const found = systemBinary(path, "chromium", "for the account page's browser test");
  if (found === true) return;
  skipped.push(`browser tests (server: ${BROWSER_TESTS.join(", ")}): no Chromium at ${path} and ${found}; install Chromium or set ICCID_CHROMIUM`);
  process.env.ICCID_SKIP_BROWSER = "1";
}

/** Debian's PgBouncer, for the test of the PostgreSQL store behind a transaction pooler (server-postgres). */
function pgbouncer() {
  const path = PGBOUNCER;
  const found = systemBinary(path, "pgbouncer", "for the PostgreSQL store's test behind a transaction pooler");
  if (found === true) return;
  skipped.push(`the PgBouncer test (server-postgres: ${PGBOUNCER_TEST}): no pgbouncer at ${path} and ${found}; install pgbouncer or set ICCID_PGBOUNCER`);
  process.env.ICCID_SKIP_PGBOUNCER = "1";
}

/** buildah and debootstrap, for the container image's test (container: image.test.ts). */
function containerTools() {
  for (const [path, pkg] of [[BUILDAH, "buildah"], [DEBOOTSTRAP, "debootstrap"]]) {
    const found = systemBinary(path, pkg, "for the container image's test");
    if (found === true) continue;
    skipped.push(`the container image test (container: ${CONTAINER_TEST}): no ${pkg} at ${path} and ${found}; install buildah and debootstrap or set ICCID_BUILDAH / ICCID_DEBOOTSTRAP`);
    process.env.ICCID_SKIP_CONTAINER = "1";
    return;
  }
}

/** The disk-full fault test mounts a small tmpfs: root with the right to mount (CI has it). */
function tmpfs() {
  const dir = mkdtempSync(join(tmpdir(), "iccid-tmpfs-probe-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "ignore" }).status === 0;
  if (mounted) spawnSync("umount", [dir], { stdio: "ignore" });
  rmSync(dir, { recursive: true, force: true });
  if (mounted) return;
  skipped.push("the full-disk fault test (hardening/sqlite-faults.test.ts): cannot mount a tmpfs here (it needs root with the right to mount)");
  process.env.ICCID_SKIP_TMPFS = "1";
}

function answers(port, probe) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(3000, () => done("no answer within 3 s"));
    socket.on("error", (error) => done(error.code ?? error.message));
    socket.on("connect", () => (probe ? socket.write(probe.send) : done(true)));
    socket.on("data", (data) => done(probe.expect.test(String(data)) ? true : `unexpected answer ${JSON.stringify(String(data).slice(0, 40))}`));
  });
}

/** PostgreSQL: the URL given, or postgres@127.0.0.1:5432 with a database of our own (created once). */
async function postgres() {
  if (process.env.ICCID_TEST_POSTGRES_URL) return true;
  const reachable = await answers(5432);
  if (reachable !== true) return `PostgreSQL does not answer on 127.0.0.1:5432 (${reachable})`;
  const { Client } = createRequire(join(ROOT, "packages/server/package.json"))("pg");
  const client = new Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres", connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'iccid_test'");
    if (exists.rowCount === 0) await client.query("CREATE DATABASE iccid_test");
  } catch (error) {
    return `PostgreSQL on 127.0.0.1:5432 refused user postgres without a password (${error.message}); set ICCID_TEST_POSTGRES_URL`;
  } finally {
    await client.end().catch(() => {});
  }
  process.env.ICCID_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/iccid_test";
  return true;
}

async function redis() {
  if (process.env.ICCID_TEST_REDIS_URL) return true;
  const ok = await answers(6379, { send: "PING\r\n", expect: /^\+PONG/ });
  if (ok !== true) return `Redis does not answer on 127.0.0.1:6379 (${ok})`;
  process.env.ICCID_TEST_REDIS_URL = "redis://127.0.0.1:6379";
  return true;
}

/** What ran: the whole suite, or the projects and tests the arguments selected; then what this machine could not run. */
function reportSkipped(selection) {
  if (selection) for (const line of selectionLines(selection)) say(line);
  if (skipped.length === 0) {
    if (!selection || selection.everything) say(`--- every suite ran (browser test, PostgreSQL + Redis suites${matrixRan.length ? `, ${MATRIX_PROJECTS.join(", ")} on Node ${matrixRan.join(" and ")}` : ""} included)`);
    return;
  }
  say("--- NOT RUN on this machine:");
  for (const line of skipped) say(`    - ${line}`);
}

ensurePnpm();
ensureInstalled();
ensureNative();
chromium();
tmpfs();
containerTools();
const [pg, rd] = await Promise.all([postgres(), redis()]);
if (pg === true && rd === true) pgbouncer();
if (pg !== true || rd !== true) {
  delete process.env.ICCID_TEST_POSTGRES_URL;
  delete process.env.ICCID_TEST_REDIS_URL;
  skipped.push(`server-postgres suite and scale-out tests: ${[pg, rd].filter((r) => r !== true).join("; ")}`);
} else {
  say(`--- PostgreSQL at ${process.env.ICCID_TEST_POSTGRES_URL}, Redis at ${process.env.ICCID_TEST_REDIS_URL}`);
}
if (skipped.length) reportSkipped();
ensureBuilt();
say("--- typecheck");
if (run("pnpm", ["-s", "typecheck"]) !== 0) process.exit(1);
say("--- vitest");
const args = process.argv.slice(2);
const vitest = spawn("pnpm", ["exec", "vitest", "run", ...args], { cwd: ROOT, env: childEnv({ ICCID_SKIP_BUILD: "1" }), stdio: "inherit" });
let status = await relay(vitest);
// The Node matrix, for the whole suite only: a run narrowed by arguments is about those tests.
const majors = args.length === 0 ? matrixMajors() : [];
const matrix = await runMatrix(majors);
for (const entry of matrix.filter((e) => e.reason)) skipped.push(`${MATRIX_PROJECTS.join(", ")} on Node ${entry.major}: ${entry.reason}`);
if (matrix.some((entry) => entry.status !== undefined && entry.status !== 0)) status ||= 1;
const postgresRan = Boolean(process.env.ICCID_TEST_POSTGRES_URL && process.env.ICCID_TEST_REDIS_URL);
matrixRan.push(...matrix.filter((e) => e.version).map((e) => e.version));
for (const entry of matrix.filter((e) => e.version)) say(`--- on Node ${entry.version}: ${MATRIX_PROJECTS.join(", ")} ${entry.status === 0 ? "passed" : "FAILED"} (${entry.seconds} s)`);
if (args.length === 0 && majors.length === 0) skipped.push(`the Node matrix (${MATRIX_PROJECTS.join(", ")} on other Nodes): ICCID_NODE_MATRIX names no Node but this one`);
reportSkipped(describeSelection(args, projectNames(ROOT, { postgres: postgresRan })));
// CI insists on every suite: a green run that skipped one would hide it.
if (status === 0 && skipped.length > 0 && process.env.ICCID_REQUIRE_ALL === "1") {
  say("--- failing: ICCID_REQUIRE_ALL=1 and some suites did not run (above)");
  process.exit(1);
}
process.exit(status);
