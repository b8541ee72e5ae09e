import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The server's layering, checked on its import statements: the domain knows nothing of HTTP, and the
// folders (each root file counting as its own) import each other in one direction only.
const SRC = dirname(fileURLToPath(import.meta.url));
const DOMAIN = ["domain", "services", "limits", "store", "decode", "auth"];
const HTTP = /^(koa|@koa\/)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** "services", "http", … for a file in a folder; the file's own name for a file at the root of src. */
const unitOf = (path: string) => relative(SRC, path).split("/")[0]!;

const imports = sources(SRC).map((file) => {
  const specifiers = [...readFileSync(file, "utf8").matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((m) => m[1]!);
  return {
    file: relative(SRC, file),
    unit: unitOf(file),
    packages: specifiers.filter((s) => !s.startsWith(".")),
    units: specifiers.filter((s) => s.startsWith(".")).map((s) => unitOf(resolve(dirname(file), s).replace(/\.js$/, ".ts"))),
  };
});

describe("the server's layers", () => {
  it("keep HTTP out of the domain: no Koa, no http/ or routes/ import under domain, services, limits, store, decode, auth", () => {
    const offending = imports
      .filter((i) => DOMAIN.includes(i.unit))
      .flatMap((i) => [...i.packages.filter((p) => HTTP.test(p)), ...i.units.filter((u) => u === "http" || u === "routes")].map((what) => `${i.file} imports ${what}`));
    expect(offending).toEqual([]);
  });

  it("have no import cycle between folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) for (const u of i.units) if (u !== i.unit) edges.set(i.unit, (edges.get(i.unit) ?? new Set()).add(u));
    const cycles = new Set<string>();
    const visit = (unit: string, path: string[]) => {
      if (path.includes(unit)) return void cycles.add([...path.slice(path.indexOf(unit)), unit].join(" → "));
      for (const next of edges.get(unit) ?? []) visit(next, [...path, unit]);
    };
    for (const unit of edges.keys()) visit(unit, []);
    expect([...cycles]).toEqual([]);
  });
});
