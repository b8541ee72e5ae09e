import fc from "fast-check";
import { expect } from "vitest";
import { ResponseValidationError } from "../src/errors.js";
import { checkedBody } from "../src/response-body.js";

// One- and two-field changes to a JSON answer, and the same rejection, for the tests that hold a fast
// answer check to zod's verdicts.

export type Path = (string | number)[];

/** Every path in `value`, the root included. */
export function paths(value: unknown, at: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
}

/** Sets (or deletes) the value at `path`; throws when the path runs through a value already replaced. */
export function set(root: unknown, path: Path, value: unknown, remove: boolean): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
}

/** Values a broken answer could hold instead of the right one, the enum members of other fields included. */
export const odd = fc.constantFrom<unknown>(null, undefined, 0, -1, 1.5, 2 ** 60, "", "x", "GBR", "custom", "valid", "inferred", "numbering-rule", "310", "nope", true, false, [], {}, [1], { code: "hex_digits", message: "m" });

/**
 * A property: one or two changes to `good()` (at paths of the good answer) leave `fast` and `zodOk`
 * agreeing, and `fast` never accepts what zod rejects.
 */
export function agreesWithZod(good: () => unknown, fast: (data: unknown) => boolean, zodOk: (data: unknown) => boolean) {
  const all = paths(good()).filter((p) => p.length > 0);
  return fc.property(fc.array(fc.tuple(fc.constantFrom(...all), odd, fc.boolean()), { minLength: 1, maxLength: 2 }), (changes) => {
    const answer = good();
    for (const [path, value, remove] of changes) {
      try {
        set(answer, path, value, remove);
      } catch {
        return; // a path under a value already replaced
      }
    }
    const verdict = fast(answer);
    if (verdict && !zodOk(answer)) throw new Error(`the fast check accepts what zod rejects: ${JSON.stringify(changes)}`);
    if (verdict !== zodOk(answer)) throw new Error(`the fast check and zod disagree: ${JSON.stringify(changes)}`);
  });
}

/**
 * The ResponseValidationError the SDK throws for `answer` checked by `fast`, after asserting it is the one
 * zod's `schema` alone gives: same message, same issues.
 */
export function rejectedAsZodAlone(fast: Parameters<typeof checkedBody>[1], schema: Parameters<typeof checkedBody>[1], answer: unknown): ResponseValidationError {
  const byFast = thrownBy(fast, answer);
  const byZod = thrownBy(schema, answer);
  expect(byFast).toBeInstanceOf(ResponseValidationError);
  expect(byZod).toBeInstanceOf(ResponseValidationError);
  const [fastError, zodError] = [byFast, byZod] as ResponseValidationError[];
  expect(fastError!.message).toBe(zodError!.message);
  expect(fastError!.issues).toEqual(zodError!.issues);
  return fastError!;
}

/** What checking `body` as a 200 answer with `schema` throws (undefined when it accepts it). */
function thrownBy(schema: Parameters<typeof checkedBody>[1], body: unknown): unknown {
  try {
    checkedBody({ method: "POST", path: "/iccid/lookup" }, schema, { status: 200, headers: { "content-type": "application/json", "x-request-id": "req_1" }, body: JSON.stringify(body) });
    return undefined;
  } catch (error) {
    return error;
  }
}
