import { join } from "node:path";
// A build's server, run as users run it: the default plan set with the build's own operator command
// (`iccid-server plan set`), then `iccid-server start` on the servers' core (cores.mjs), logging at its
// default level to /dev/null, on a port of its own. Its first start on an empty database makes the owner
// account and prints its key, which the bench uses; `createAccount` makes more with `account create` and
// `key create`.
import { onServerCore } from "./cores.mjs";
import { httpLoad } from "./http-load.mjs";
import { PROFILE, runCommand, spawnKept } from "./processes.mjs";

/** The default plan's numbers, which no bench run reaches: every answer the bench accepts is a 200. */
const LIMITS = ["--rate-limit", "1000000000", "--window", "60", "--monthly-lookups", "1000000000000"];
const PASSWORD = "bench-password-of-the-bench";

async function operator(build, db, args, input) {
  const run = await runCommand(process.execPath, [build.server, ...args, "--db", db], { input });
  if (run.code !== 0) throw new Error(`${build.name}: iccid-server ${args.slice(0, 2).join(" ")} failed (${run.code}): ${run.stderr.slice(-500)}`);
  return run.stdout;
}

/** The database `db` (a SQLite file or a PostgreSQL URL; made and migrated if new) with the bench's limits on its default plan. */
export async function prepareDatabase(build, db) {
  // plan set changes a database and makes none: migrate makes it.
  await operator(build, db, ["migrate"]);
  await operator(build, db, ["plan", "set", "standard", ...LIMITS]);
}

/** One more account `email` on the default plan, with one API key of every scope: resolves with {email, password, key}. */
export async function createAccount(build, db, email) {
  await operator(build, db, ["account", "create", "--email", email, "--password-stdin"], PASSWORD);
  const key = (await operator(build, db, ["key", "create", "--email", email, "--name", "bench"])).trim();
  return { email, password: PASSWORD, key };
}

/**
 * `iccid-server start` of `build` on `db` (prepared) with more `options` (such as --redis); resolves once
 * it serves and /readyz says "ok" with {build, url, pid, owner ({email, password, key} from the banner of
 * a first start, else undefined), load (its load generator, http-load.mjs), stop()}.
 */
export async function startServer(build, db, options = []) {
  const argv = onServerCore([process.execPath, ...PROFILE, build.server, "start", "--db", db, "--host", "127.0.0.1", "--port", "0", ...options]);
  const kept = spawnKept(argv, { stdio: ["ignore", "ignore", "pipe"] });
  const { child } = kept;
  let stderr = "";
  let exited;
  const url = await new Promise((resolve, reject) => {
    exited = (code) => reject(new Error(`${build.name}: iccid-server start exited with ${code}: ${stderr.slice(-1000)}`));
    child.once("exit", exited);
    child.stderr.on("data", (d) => {
      stderr = (stderr + d).slice(-8000);
      const serving = /is serving (http:\/\/[^\s]+)/.exec(stderr);
      if (serving) resolve(serving[1]);
    });
  });
  child.off("exit", exited);
  const banner = (label) => new RegExp(`${label}:\\s+(\\S+)`).exec(stderr)?.[1];
  const owner = banner("API key") && { email: banner("email"), password: banner("password"), key: banner("API key") };
  const ready = await fetch(`${url}/readyz`);
  const status = (await ready.json()).status;
  if (ready.status !== 200 || status !== "ok") {
    await kept.stop();
    throw new Error(`${build.name}: ${url}/readyz answered ${ready.status} ${status}`);
  }
  const load = httpLoad(url);
  return {
    build,
    url,
    pid: child.pid,
    owner,
    load,
    async stop() {
      load.close();
      await kept.stop();
    },
  };
}

/**
 * `build`'s server on a new SQLite file `<dir>/<build>.db`, prepared and started; the server is added to
 * `running` (stopped by the suite at the end). Resolves with {server, db}.
 */
export async function startOnSqlite(build, dir, running) {
  const db = join(dir, `${build.name}.db`);
  await prepareDatabase(build, db);
  const server = await startServer(build, db);
  running.push(server);
  return { server, db };
}
