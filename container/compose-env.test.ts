import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { resolveSettings } from "../packages/server/src/cli/settings.js";

// What the image and the compose files set must be what the server reads: a variable it does not read
// (a typo, a renamed setting) would be ignored without a word, and the operator would believe it applied.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const COMPOSE_FILES = ["compose.yaml", "compose.postgres.yaml"];

/** The variables `iccid-server` reads: those resolveSettings asks for, and those its sources read from process.env by name. */
function variablesTheServerReads(): Set<string> {
  const read = new Set<string>();
  const recorder = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_target, key) => {
      if (typeof key === "string") read.add(key);
      return undefined;
    },
  });
  resolveSettings({}, recorder);
  for (const file of sources(join(ROOT, "packages/server/src"))) {
    for (const match of readFileSync(file, "utf8").matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*"([A-Z][A-Z0-9_]*)"\s*\])/g)) read.add(match[1] ?? match[2]!);
  }
  return read;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** A value as compose would pass it: `${NAME:-default}` its default, `${NAME:?why}` and `${NAME}` a sample value. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*)|:?\?[^}]*)?\}/g, (_m, _name, fallback?: string) => fallback ?? "sample0value").replaceAll("$$", "$");
}

interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
}

function environment(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  const pairs = Array.isArray(env) ? env.map((line) => [line.split("=")[0]!, line.slice(line.indexOf("=") + 1)]) : Object.entries(env);
  return Object.fromEntries(pairs.map(([name, value]) => [name, interpolate(String(value ?? ""))]));
}

function services(file: string): Record<string, Service> {
  return (parse(readFileSync(join(ROOT, file), "utf8")) as { services: Record<string, Service> }).services;
}

/** The services that run this repository's image: built from its root. */
function ours(file: string): [string, Service][] {
  return Object.entries(services(file)).filter(([, service]) => service.build === "." || (service.build as { context?: string })?.context === ".");
}

/** The Containerfile's final stage: its ENV pairs, its VOLUME and its HEALTHCHECK command. */
function finalStage() {
  const text = readFileSync(join(ROOT, "Containerfile"), "utf8").replace(/\\\n/g, " ");
  const stage = text.slice(text.lastIndexOf("\nFROM "));
  const env: Record<string, string> = {};
  for (const line of stage.split("\n").filter((l) => l.startsWith("ENV "))) {
    for (const pair of line.slice(4).trim().split(/\s+/)) env[pair.split("=")[0]!] = pair.slice(pair.indexOf("=") + 1);
  }
  const healthcheck = /^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(stage)?.[1];
  return { env, volume: /^VOLUME (\S+)$/m.exec(stage)?.[1], healthcheck: healthcheck ? (JSON.parse(healthcheck) as string[]) : undefined };
}

describe("the variables the image and the compose files set", () => {
  const read = variablesTheServerReads();

  it("the server's list is found at all (the recorder and the source scan work)", () => {
    for (const name of ["ICCID_DB", "ICCID_PORT", "ICCID_HOST", "ICCID_REDIS_URL", "ICCID_OWNER_EMAIL"]) expect(read).toContain(name);
  });

  it("the Containerfile's ENV: each read by the server, and together a valid configuration", () => {
    const { env } = finalStage();
    expect(Object.keys(env).length).toBeGreaterThan(0);
    expect(Object.keys(env).filter((name) => !read.has(name))).toEqual([]);
    expect(() => resolveSettings({}, env)).not.toThrow();
  });

  for (const file of COMPOSE_FILES) {
    describe(file, () => {
      it("runs the image built from this repository", () => {
        expect(ours(file).length).toBeGreaterThan(0);
      });

      it("sets only variables the server reads, with values it accepts over the image's", () => {
        for (const [name, service] of ours(file)) {
          const env = environment(service);
          expect(Object.keys(env).filter((key) => !read.has(key)), `${file}: ${name}`).toEqual([]);
          expect(() => resolveSettings({}, { ...finalStage().env, ...env }), `${file}: ${name}`).not.toThrow();
        }
      });

      it("gives every service a healthcheck, the server the image's own, and /data its volume", () => {
        const image = finalStage();
        for (const [name, service] of Object.entries(services(file))) expect(service.healthcheck?.test?.length, `${file}: ${name}`).toBeGreaterThan(0);
        for (const [name, service] of ours(file)) {
          expect(service.healthcheck?.test, `${file}: ${name}`).toEqual(["CMD", ...image.healthcheck!]);
          expect(service.volumes?.some((volume) => volume.endsWith(`:${image.volume}`)), `${file}: ${name}`).toBe(true);
        }
      });

      it("starts the server only once each service it depends on reports healthy", () => {
        const all = services(file);
        for (const [name, service] of ours(file)) {
          const others = Object.keys(all).filter((other) => other !== name && !ours(file).some(([own]) => own === other));
          const depends = (service.depends_on ?? {}) as Record<string, { condition?: string }>;
          expect(Object.keys(depends).sort(), `${file}: ${name}`).toEqual(others.sort());
          for (const other of others) expect(depends[other]?.condition, `${file}: ${name} → ${other}`).toBe("service_healthy");
        }
      });
    });
  }

  it("compose.postgres.yaml points the server at its PostgreSQL and Redis, with the password PostgreSQL is given", () => {
    const all = services("compose.postgres.yaml");
    const [, server] = ours("compose.postgres.yaml")[0]!;
    const raw = server.environment as Record<string, string>;
    const password = /\$\{POSTGRES_PASSWORD:\?[^}]*\}/;
    expect(String(all.postgres!.environment && (all.postgres!.environment as Record<string, string>).POSTGRES_PASSWORD)).toMatch(password);
    expect(raw.ICCID_DB).toMatch(/^postgres:\/\/iccid:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/iccid$/);
    expect(raw.ICCID_REDIS_URL).toBe("redis://redis:6379");
  });
});
