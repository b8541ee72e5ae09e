import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { onServerCore } from "./cores.mjs";
import { httpLoad } from "./http-load.mjs";

const SERVER = fileURLToPath(new URL("./child-server.mjs", import.meta.url));
const CLIENT = fileURLToPath(new URL("./child-client.mjs", import.meta.url));

// BENCH_CPU_PROF=<dir>: every bench child writes a V8 CPU profile there when it stops (node --cpu-prof).
const PROFILE = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/**
 * Starts a bench server child (see child-server.mjs) on the servers' core (cores.mjs); resolves like
 * startChild, plus, for a child that serves HTTP, `post(load)`: the bench's load generator for this server
 * (http-load.mjs), whose connections are kept from one round to the next.
 */
export async function startServer(kind, env = {}) {
  const server = await startChild(SERVER, kind, env);
  if (!server.url) return server;
  const load = httpLoad(server.url, server.key);
  return {
    ...server,
    post: load.post,
    async stop() {
      load.close();
      await server.stop();
    },
  };
}

/** Starts a bench client child (see child-client.mjs) calling `server`; resolves like startChild. */
export function startClient(kind, server) {
  return startChild(CLIENT, kind, { BENCH_URL: server.url, BENCH_KEY: server.key });
}

/**
 * Starts a bench child and resolves with {url, key, pid, send, stop} once it prints its JSON line.
 * `send(message)` asks the child over IPC and resolves with its answer.
 */
async function startChild(script, kind, env) {
  const argv = [process.execPath, ...PROFILE, script, kind];
  const [cmd, ...args] = script === SERVER ? onServerCore(argv) : argv;
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit", "ipc"] });
  let out = "";
  const ready = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line));
    });
  });
  child.removeAllListeners("exit");
  return {
    ...ready,
    pid: child.pid,
    async send(message) {
      child.send(message);
      const [answer] = await once(child, "message");
      return answer;
    },
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Runs a command; resolves with {code, ms, stdout, stderr}. */
export async function runCommand(cmd, args, options = {}) {
  const started = performance.now();
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const [code] = await once(child, "exit");
  return { code, ms: performance.now() - started, stdout, stderr };
}
