import type { ResponseSchema } from "./response-body.js";

// A response schema with a hand-written check in front of core's zod schema. The check mirrors the schema
// and is never more lenient than it: whatever it does not accept goes to zod, which either accepts it after
// all (a shape the check does not know) or reports the issues, paths and messages exactly as before. Unlike
// zod, an answer the check accepts is returned as parsed, so fields the schema does not name are kept, not
// stripped (the current server sends none).

/** `schema` with `isValid` tried first; `isValid` must accept nothing `schema` rejects. */
export function checkedFirst<T>(isValid: (data: unknown) => data is T, schema: ResponseSchema<T>): ResponseSchema<T> {
  return {
    safeParse(data: unknown) {
      return isValid(data) ? { success: true, data } : schema.safeParse(data);
    },
  };
}
