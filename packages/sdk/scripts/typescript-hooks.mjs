// Node module hooks that let plain Node 20 run this repo's TypeScript sources: the "source" export
// condition picks each workspace package's src/, a relative "./x.js" falls back to "./x.ts" (the NodeNext
// spelling of TS imports), and .ts files are transpiled one by one (types stripped, nothing checked:
// `pnpm typecheck` does that).
import { readFile } from "node:fs/promises";
import ts from "typescript";

const RELATIVE = /^(?:\.{1,2}\/|\/|file:)/;

export async function resolve(specifier, context, next) {
  const withSource = { ...context, conditions: [...new Set(["source", ...context.conditions])] };
  try {
    return await next(specifier, withSource);
  } catch (error) {
    if (!RELATIVE.test(specifier) || !specifier.endsWith(".js")) throw error;
    return next(`${specifier.slice(0, -3)}.ts`, withSource);
  }
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const source = await readFile(new URL(url), "utf8");
  const { outputText } = ts.transpileModule(source, {
    fileName: new URL(url).pathname,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      inlineSourceMap: true,
    },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}
