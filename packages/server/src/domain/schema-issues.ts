import type { z } from "zod";
import type { FieldIssue } from "./refusals.js";

// The one place where a schema's complaint becomes the API's words: a zod error map that says each rule
// in a phrase that follows the field's name ("name: must be at most 100 characters"), and the turn of
// the final issues into FieldIssues. Words a schema sets itself (`{ error: … }`) win over these, as zod
// puts a schema's own message before the map of the parse.

type RawIssue = z.core.$ZodRawIssue;

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  date: "a date",
  null: "null",
};

const FORMAT_WORDS: Record<string, string> = {
  date: "must be a date such as 2026-11-01",
  datetime: "must be an RFC 3339 timestamp such as 2026-11-01T00:00:00Z",
  email: "must be an email address",
  url: "must be a URL",
  uuid: "must be a UUID",
};

/** What a JSON value is, in words: "a string", "null", "an array". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "boolean") return "a boolean";
  if (typeof value === "object") return "an object";
  return TYPE_WORDS[typeof value] ?? typeof value;
}

const plural = (n: number | bigint, one: string) => `${n} ${n === 1 || n === 1n ? one : `${one}s`}`;

/** "at least 1 character", "at most 1000 items", "greater than 0": a size rule of a string, array or number. */
function sizeRule(issue: { origin: string; inclusive?: boolean; exact?: boolean }, bound: "min" | "max", n: number | bigint): string {
  if (issue.origin === "string") {
    if (issue.exact) return `must be exactly ${plural(n, "character")}`;
    if (bound === "min" && Number(n) === 1) return "must not be empty";
    return `must be ${bound === "min" ? "at least" : "at most"} ${plural(n, "character")}`;
  }
  if (issue.origin === "array" || issue.origin === "set") {
    if (issue.exact) return `must hold exactly ${plural(n, "item")}`;
    if (bound === "min" && Number(n) === 1) return "must not be empty";
    return `must hold ${bound === "min" ? "at least" : "at most"} ${plural(n, "item")}`;
  }
  if (issue.inclusive === false) return `must be ${bound === "min" ? "greater" : "less"} than ${n}`;
  return `must be ${bound === "min" ? "at least" : "at most"} ${n}`;
}

/** One form's issues when a union's value missed it, as the parse's raw issues and its final ones both carry them. */
type UnionBranch = ReadonlyArray<{ code: string; path: readonly PropertyKey[]; expected?: string }>;

/** Whether the value failed a union's form for its type alone: the form's one issue is an invalid_type at the value itself. */
function typeMissOnly(branch: UnionBranch): boolean {
  return branch.length === 1 && branch[0]!.code === "invalid_type" && branch[0]!.path.length === 0;
}

/**
 * The types a union allows, when a value failed each of its forms for its type alone (a number where a
 * string or an object may go): such a miss is a type error, said as one. Null for any other union miss.
 */
function unionTypes(issue: { code: string; errors?: readonly UnionBranch[] }): string[] | null {
  if (issue.code !== "invalid_union" || !issue.errors?.length) return null;
  const types: string[] = [];
  for (const branch of issue.errors) {
    const expected = typeMissOnly(branch) ? branch[0]!.expected : undefined;
    if (!expected) return null;
    types.push(TYPE_WORDS[expected] ?? expected);
  }
  return types;
}

/**
 * The one form of a union the value was meant for: the only one it failed for more than its type (an
 * object with a field missing, where a string or an object may go). Undefined when there is no such form.
 */
function formMeant(issue: z.core.$ZodIssueInvalidUnion): readonly z.core.$ZodIssue[] | undefined {
  const meant = issue.errors.filter((branch) => !typeMissOnly(branch));
  return meant.length === 1 ? meant[0] : undefined;
}

/** The words for one issue, as a predicate of the field it is about. */
function ruleWords(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case "too_small":
      return sizeRule(issue, "min", issue.minimum);
    case "too_big":
      return sizeRule(issue, "max", issue.maximum);
    case "invalid_format":
      return FORMAT_WORDS[issue.format] ?? "is not in the expected format";
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return "is not a known field";
    case "invalid_union": {
      const types = unionTypes(issue);
      return types ? `must be ${types.join(" or ")}, not ${kindOf(issue.input)}` : "matches none of the forms allowed here";
    }
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has an item that is not allowed";
    default:
      return "is not valid";
  }
}

/** The error map wire input is parsed with (through WIRE_PARSE). */
const schemaIssueWords: z.core.$ZodErrorMap = (issue) => ruleWords(issue);

/**
 * The params every parse of wire input passes: `schema.safeParse(value, WIRE_PARSE)`, one frozen object
 * shared by every parse.
 */
export const WIRE_PARSE: z.core.ParseContext<z.core.$ZodIssue> = Object.freeze({ error: schemaIssueWords });

/**
 * The issues of a failed parse as FieldIssues, at most `limit`: each names its field by path and keeps
 * zod's code; an unknown field is named by itself (one issue each) rather than by the object holding it.
 */
export function fieldIssues(issues: readonly z.core.$ZodIssue[], limit = 20): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of issues) {
    const form = issue.code === "invalid_union" ? formMeant(issue) : undefined;
    if (form) {
      // The value is of the type of one form only: its issues within that form are the ones to tell.
      out.push(...fieldIssues(form.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })), limit));
    } else if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ field: [...issue.path, key], code: issue.code, detail: issue.message });
    } else {
      out.push({ field: issue.path, code: unionTypes(issue) ? "invalid_type" : issue.code, detail: issue.message });
    }
  }
  return out.slice(0, limit);
}
