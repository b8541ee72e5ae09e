import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILDAH, buildah, STORAGE } from "./buildah.mjs";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const IMAGE = "localhost/iccid-lookup:test";

/** What the image says about itself (the Docker form: it alone carries HEALTHCHECK). */
export interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  Volumes: Record<string, unknown> | null;
  WorkingDir: string;
  ExposedPorts: Record<string, unknown> | null;
  Healthcheck?: { Test: string[] };
}

export function imageConfig(image = IMAGE): ImageConfig {
  return (JSON.parse(buildah(["inspect", "--type", "image", image]).stdout) as { Docker: { config: ImageConfig } }).Docker.config;
}

/**
 * Builds the repository's Containerfile FROM `base` (the ARG), as CI does: chroot isolation, the Docker
 * format (OCI drops HEALTHCHECK), layers cached between runs (each keyed by its instruction and inputs),
 * no working container left behind by a failed step.
 * A CA bundle in NODE_EXTRA_CA_CERTS (a TLS-intercepting proxy) reaches the install as the secret "ca".
 */
export function buildImage(base: string): void {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const secret = ca && existsSync(ca) ? ["--secret", `id=ca,src=${ca}`] : [];
  const args = ["build", "--isolation", "chroot", "--layers", "--force-rm", "--format", "docker", ...secret, "--build-arg", `NODE_IMAGE=${base}`, "-t", IMAGE, "-f", join(ROOT, "Containerfile"), ROOT];
  // The build competes with colleagues' work on a small machine: it yields to them.
  const { status } = spawnSync("nice", ["-n", "10", BUILDAH, ...STORAGE, ...args], { stdio: ["ignore", "inherit", "inherit"] });
  if (status !== 0) throw new Error(`buildah build exited ${status} (its output is above)`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * One container of the image, run as `docker run -v <data>:/data -e …` would run it: a working container
 * from the image, its own command (entrypoint + cmd) under its own user, env and working folder, with a
 * host folder bound over /data. (buildah run would otherwise mount a fresh folder of its own on a
 * declared volume, over the bind: the declaration is dropped from the working container, not the image.)
 */
export class Container {
  readonly name = `iccid-test-${randomBytes(4).toString("hex")}`;
  output = "";
  private child: ChildProcess | undefined;
  exit: Promise<number | null> = Promise.resolve(null);

  constructor(
    readonly env: Record<string, string>,
    readonly data: string,
  ) {
    buildah(["from", "--quiet", "--name", this.name, IMAGE]);
    buildah(["config", "--volume", "/data-", this.name]);
  }

  /** What every process of this container gets: the host folder as /data, and the variables given. */
  private runOptions(): string[] {
    return ["--volume", `${this.data}:/data`, ...Object.entries(this.env).flatMap(([name, value]) => ["--env", `${name}=${value}`])];
  }

  /** Starts the image's own command; `args` replace its CMD, as `docker run IMAGE args` would. */
  start(args?: string[]): this {
    const config = imageConfig();
    const command = [...config.Entrypoint, ...(args ?? config.Cmd)];
    const child = spawn(BUILDAH, [...STORAGE, "run", "--isolation", "chroot", ...this.runOptions(), this.name, "--", ...command], { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    return this;
  }

  /** `buildah run` in the same container, as `docker exec` would: the same env and /data; its exit status and output. */
  async exec(command: string[]): Promise<{ status: number | null; output: string }> {
    const child = spawn(BUILDAH, [...STORAGE, "run", "--isolation", "chroot", ...this.runOptions(), this.name, "--", ...command], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    return { status, output };
  }

  /** Resolves once the output matches, rejects if the container ends first or `ms` pass. */
  async waitFor(pattern: RegExp, ms = 90_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + ms;
    let ended = false;
    void this.exit.then(() => (ended = true));
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (ended || Date.now() > deadline) throw new Error(`${ended ? "the container ended" : `${ms} ms passed`} before ${pattern}; its output:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The server's process id, from its "listening" line (chroot isolation shares the host's process ids). */
  serverPid(): number {
    const line = this.output.split("\n").find((l) => l.includes('"msg":"listening"'));
    if (!line) throw new Error(`no "listening" line yet:\n${this.output}`);
    return (JSON.parse(line) as { pid: number }).pid;
  }

  /**
   * SIGTERM to the server itself, as `docker stop` sends it to the container's first process (buildah run
   * kills its child instead of passing the signal on); resolves with the exit status.
   */
  async stop(): Promise<number | null> {
    process.kill(this.serverPid(), "SIGTERM");
    return this.exit;
  }

  /** Ends whatever still runs (SIGKILL to the server, then to buildah) and removes the working container. */
  remove(): void {
    try {
      process.kill(this.serverPid(), "SIGKILL");
    } catch {
      // Not started, or stopped already.
    }
    if (this.child && this.child.exitCode === null) this.child.kill("SIGKILL");
    buildah(["rm", this.name], { check: false });
  }
}
