import { compile, type z } from "zod";

// A wire schema's safeParse through zod's compile(): the same verdicts, output and issues as the schema's
// own, from code zod generates for it (a schema zod cannot compile keeps its runtime parser). It compiles
// on the first parse, not at import, so a process that never checks that schema (the server, one CLI
// command) pays nothing for it.

/** What a compiled schema offers its user: safeParse, typed as the schema's. */
export interface CompiledSchema<T extends z.ZodType> {
  safeParse(data: unknown): z.ZodSafeParseResult<z.output<T>>;
}

/** `schema`, compiled by zod on its first safeParse. */
export function compiled<T extends z.ZodType>(schema: T): CompiledSchema<T> {
  let fast: T | undefined;
  return {
    safeParse(data) {
      fast ??= compile(schema);
      return fast.safeParse(data);
    },
  };
}
