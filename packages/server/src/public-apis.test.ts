import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every package stands on its dependencies' public APIs: no source file (tests aside) reads or writes an
// underscore-prefixed member (a dependency's private state: `_upsert`, `_httpMessage`), reaches zod's
// internals (`_zod`), takes a response away from Koa (`ctx.respond = false`), or extends a class it imports
// from a package (a subclass ends up overriding private methods). Node's own modules are documented to be
// extended and are exempt. The packages' own code names nothing with a leading underscore, so any such
// member is someone else's.
const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const MEMBERS = [
  { what: "an underscore-prefixed member", pattern: /(?:\?\.|\.)\s*_[A-Za-z$][\w$]*|\[\s*["'`]_[A-Za-z$][\w$]*["'`]\s*\]/ },
  { what: "zod's internals", pattern: /\b_zod\b/ },
  { what: "a response taken from Koa", pattern: /\.respond\s*=\s*false/ },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The names a file imports from packages other than Node's own: named, default and namespace imports. */
function packageImports(text: string): Set<string> {
  const clauses = [...text.matchAll(/^import\s+(?:type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gm)].filter((m) => !/^(\.|node:)/.test(m[2]!)).map((m) => m[1]!);
  return new Set(
    clauses.flatMap((clause) => {
      const named = /\{([^}]*)\}/.exec(clause)?.[1]?.split(",").map((name) => name.replace(/^\s*type\s+/, "").trim().split(/\s+as\s+/).pop()!) ?? [];
      const bare = clause.replace(/\{[^}]*\}/, "").replace(/\*\s+as\s+/, "").split(",").map((name) => name.trim());
      return [...named, ...bare].filter(Boolean);
    }),
  );
}

/** The lines of a source that reach past a dependency's public API, as "line: what" (comments aside). */
export function privateReaches(text: string): string[] {
  const imported = packageImports(text);
  return text.split("\n").flatMap((line, i) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
    const members = MEMBERS.filter((m) => m.pattern.test(code)).map((m) => `${i + 1}: ${m.what}`);
    const parent = /\bclass\b[^{]*?\bextends\s+([A-Za-z_$][\w$]*)/.exec(code)?.[1];
    return parent && imported.has(parent) ? [...members, `${i + 1}: a subclass of ${parent}`] : members;
  });
}

describe("dependencies through their public APIs", () => {
  it("no package's source reaches a private member, zod's internals, takes a response from Koa or extends a package's class", () => {
    const files = readdirSync(PACKAGES).flatMap((name) => {
      const src = join(PACKAGES, name, "src");
      return statSync(src, { throwIfNoEntry: false })?.isDirectory() ? sources(src) : [];
    });
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => privateReaches(readFileSync(file, "utf8")).map((hit) => `${relative(PACKAGES, file)}:${hit}`));
    expect(found).toEqual([]);
  });

  it("catches each kind of reach, and leaves alone names that merely hold an underscore", () => {
    expect(privateReaches("const x = socket._httpMessage;")).toEqual(["1: an underscore-prefixed member"]);
    expect(privateReaches('limiter["_upsert"](key)')).toEqual(["1: an underscore-prefixed member"]);
    expect(privateReaches("a?._isRedisReady()")).toEqual(["1: an underscore-prefixed member"]);
    expect(privateReaches("const def = schema._zod.def;")).toEqual(["1: an underscore-prefixed member", "1: zod's internals"]);
    expect(privateReaches("ctx.respond = false;")).toEqual(["1: a response taken from Koa"]);
    expect(privateReaches('import { RateLimiterRedis } from "rate-limiter-flexible";\nclass Mine extends RateLimiterRedis {}')).toEqual(["2: a subclass of RateLimiterRedis"]);
    expect(privateReaches('import pg from "pg";\nexport class Pool extends pg.Pool {}')).toEqual(["2: a subclass of pg"]);
    expect(privateReaches('import { z } from "zod";\ntype Agrees<S extends z.ZodType> = S;')).toEqual([]);
    expect(privateReaches('import { Transform } from "node:stream";\nclass Mine extends Transform {}\nclass E extends Error {}')).toEqual([]);
    expect(privateReaches("const snake_case = row.first_seen; // see obj._private")).toEqual([]);
  });
});
