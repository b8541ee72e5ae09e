import { spawn } from "node:child_process";
import { once } from "node:events";
import { undoOnInterrupt } from "./interrupt.mjs";

// BENCH_CPU_PROF=<dir>: every bench child and server writes a V8 CPU profile there when it stops (node --cpu-prof).
export const PROFILE = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/**
 * Spawns `argv` and keeps it for the bench's interruption (interrupt.mjs): resolves with the child process
 * and `stop()`, which sends SIGTERM and waits for it to exit.
 */
export function spawnKept(argv, options) {
  const child = spawn(argv[0], argv.slice(1), options);
  const forget = undoOnInterrupt(() => child.kill("SIGTERM"));
  const exited = once(child, "exit");
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      forget();
    },
  };
}

/**
 * Starts a bench child (a floor or a client: floor.mjs, client.mjs) that prints one JSON line when ready
 * and answers IPC messages; resolves with {pid, ready (the JSON line), ask(message), stop()}.
 */
export async function startChild(argv, env = {}) {
  const kept = spawnKept(argv, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const { child } = kept;
  let out = "";
  let exited;
  const ready = await new Promise((resolve, reject) => {
    exited = (code) => reject(new Error(`${argv.join(" ")} exited with ${code}`));
    child.once("exit", exited);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line));
    });
  });
  child.off("exit", exited);
  return {
    pid: child.pid,
    ready,
    async ask(message) {
      child.send(message);
      const [answer] = await once(child, "message");
      if (answer.error) throw new Error(`${argv.slice(-2).join(" ")}: ${answer.error}`);
      return answer;
    },
    stop: kept.stop,
  };
}

/**
 * Runs a command (with `input` on its stdin) in a process group of its own, which an interruption of the
 * bench ends whole (an install or a build runs processes of its own); resolves with {code, ms, stdout, stderr}.
 */
export async function runCommand(cmd, args, { input, ...options } = {}) {
  const started = performance.now();
  const child = spawn(cmd, args, { stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true, ...options });
  const closed = once(child, "close");
  const forget = undoOnInterrupt(async () => {
    process.kill(-child.pid, "SIGTERM");
    await closed;
  });
  if (input !== undefined) child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const [code] = await closed;
  forget();
  return { code, ms: performance.now() - started, stdout, stderr };
}
