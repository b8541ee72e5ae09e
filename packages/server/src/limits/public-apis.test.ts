import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The rate limits use their libraries (rate-limiter-flexible, ioredis) only through their public APIs: no
// class of theirs is extended (whose private members a subclass ends up overriding) and no member whose
// name starts with an underscore is read or written. A minor release of either cannot break them.
const DIR = dirname(fileURLToPath(import.meta.url));

const sources = readdirSync(DIR)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .map((name) => ({ name, text: readFileSync(join(DIR, name), "utf8") }));

/** The names a file imports from packages (not from files of this repository). */
function packageImports(text: string): string[] {
  return [...text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^".][^"]*)"/gm)].flatMap((m) =>
    m[1]!.split(",").map((name) => name.replace(/^\s*type\s+/, "").trim().split(/\s+as\s+/).pop()!),
  );
}

describe("the rate limits' use of their libraries", () => {
  it("extends no class of a package and touches no underscore member", () => {
    const offending = sources.flatMap(({ name, text }) => {
      const fromPackages = new Set(packageImports(text));
      const subclasses = [...text.matchAll(/\bextends\s+([A-Za-z_$][\w$]*)/g)].filter((m) => fromPackages.has(m[1]!)).map((m) => `${name} extends ${m[1]}`);
      const underscores = [...text.matchAll(/(?:\.|\[\s*["'`])(_[A-Za-z$][\w$]*)/g)].map((m) => `${name} uses ${m[1]}`);
      return [...subclasses, ...underscores];
    });
    expect(offending).toEqual([]);
  });
});
