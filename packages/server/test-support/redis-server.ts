import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** A `redis-server` of a test's own, on a free loopback port: it can be stopped cold and resumed. */
export interface RedisServer {
  port: number;
  /** `redis://[:password@]127.0.0.1:port`. */
  url: string;
  /** SIGSTOP: the process keeps its port and connections but answers nothing (a hung Redis). */
  pause(): void;
  /** SIGCONT: it answers again. */
  resume(): void;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every redis-server a test started and left running. */
export function killRedisServers(): void {
  for (const child of running) {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  }
  running.clear();
}

/** Starts `redis-server` with `args`, once it is ready to accept connections; killRedisServers kills it. */
export async function spawnRedisServer(args: readonly string[]): Promise<ChildProcess> {
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", () => reject(new Error(`redis-server ended before it was ready: ${output}`)));
  });
  return child;
}

/**
 * Starts `redis-server` on a free port, without persistence unless `appendonly` (an append-only file in a
 * temp folder of its own), with `requirepass` when given a password.
 */
export async function startRedisServer(options: { password?: string; appendonly?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", ""];
  args.push(...(options.appendonly ? ["--appendonly", "yes", "--dir", mkdtempSync(join(tmpdir(), "iccid-redis-"))] : ["--appendonly", "no"]));
  if (options.password) args.push("--requirepass", options.password);
  const child = await spawnRedisServer(args);
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : "";
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    stop: async () => {
      running.delete(child);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      await once(child, "exit");
    },
  };
}
