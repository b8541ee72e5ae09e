import { spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./free-port.js";
import { spawnRedisServer } from "./redis-server.js";

/** A Redis Cluster of a test's own: masters on free loopback ports, each a `redis-server` that can be stopped and started again. */
export interface RedisCluster {
  ports: number[];
  /** The nodes as `--redis` takes them: `redis://127.0.0.1:port,…`. */
  urls: string;
  /** Stops master `i` cold (SIGKILL): the cluster is down until it is back (there are no replicas). */
  stop(i: number): Promise<void>;
  /** SIGSTOP of master `i`: it keeps its port and connections and answers nothing. */
  pause(i: number): void;
  /** SIGCONT: it answers again. */
  resume(i: number): void;
  /** Starts master `i` again on its port and configuration: it rejoins with its slots. */
  start(i: number): Promise<void>;
  /** Waits until every slot is served (`cluster_state:ok` on every node). */
  whole(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `masters` cluster-enabled nodes without persistence (a node notices a lost peer within 1 s) and joins them. */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), "iccid-redis-cluster-"));
  const ports: number[] = [];
  for (let i = 0; i < masters; i++) ports.push(await freePort());
  const nodes: Array<ChildProcess | undefined> = [];
  const start = async (i: number) => {
    const home = join(dir, String(ports[i]));
    mkdirSync(home, { recursive: true });
    const args = ["--port", String(ports[i]), "--bind", "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"];
    args.push("--cluster-node-timeout", "1000", "--save", "", "--appendonly", "no", "--dir", home);
    nodes[i] = await spawnRedisServer(args);
  };
  const stop = async (i: number) => {
    const child = nodes[i];
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGKILL");
    await once(child, "exit");
  };
  const whole = async () => {
    for (let waited = 0; ; waited += 100) {
      const states = await Promise.all(ports.map((port) => clusterState(port)));
      if (states.every((s) => s === "ok")) return;
      if (waited > 20_000) throw new Error(`the test's Redis Cluster is not whole: ${states.join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  for (let i = 0; i < masters; i++) await start(i);
  const create = spawnSync("redis-cli", ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-yes"], { encoding: "utf8" });
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  await whole();
  return {
    ports,
    urls: ports.map((p) => `redis://127.0.0.1:${p}`).join(","),
    stop,
    start,
    pause: (i) => void nodes[i]?.kill("SIGSTOP"),
    resume: (i) => void nodes[i]?.kill("SIGCONT"),
    whole,
    close: async () => {
      for (let i = 0; i < masters; i++) await stop(i);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function clusterState(port: number): Promise<string> {
  const node = new Redis({ port, host: "127.0.0.1", lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  node.on("error", () => {});
  try {
    await node.connect();
    return /cluster_state:(\w+)/.exec(await node.cluster("INFO"))?.[1] ?? "unknown";
  } catch {
    return "unreachable";
  } finally {
    node.disconnect();
  }
}
