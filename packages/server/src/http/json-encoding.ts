import fastJson from "fast-json-stringify";
import { z } from "zod";

/** Turns a value of a schema into its JSON text. */
export type Encode = (value: unknown) => string;

type JsonSchema = Record<string, unknown> & { type?: unknown; oneOf?: JsonSchema[]; properties?: Record<string, JsonSchema>; definitions?: unknown };

const made = new WeakMap<z.ZodType, Encode>();

/**
 * The JSON encoder of a wire schema, made once per schema from the JSON Schema zod gives for it
 * (`z.toJSONSchema`, as the OpenAPI document has it), compiled by fast-json-stringify:
 * - an object schema is compiled whole;
 * - a discriminated union (a `oneOf` of objects told apart by one member's constant) is compiled branch
 *   by branch, and a value written by its branch: fast-json-stringify would pick a `oneOf` branch by
 *   validating the value against each, which costs more than JSON.stringify's whole work;
 * - anything else with a `oneOf` inside is written by JSON.stringify, for the same reason.
 * The schema is compiled without its `required` lists: fast-json-stringify writes required members before
 * optional ones, and without them every object's members come in schema order, as JSON.stringify writes
 * the objects the services build. A value that is not of the schema's shape (not an object where the
 * schema has one, one with a member the schema does not declare, or one the compiled encoder refuses) is
 * written by JSON.stringify: the answer still goes out, as it would have without a schema.
 */
export function jsonEncoding(schema: z.ZodType): Encode {
  let encode = made.get(schema);
  if (!encode) made.set(schema, (encode = compile(withoutRequired(z.toJSONSchema(schema, { target: "draft-7" })) as JsonSchema)));
  return encode;
}

function compile(schema: JsonSchema): Encode {
  if (schema.oneOf) return discriminated(schema) ?? JSON.stringify;
  if (hasOneOf(schema)) return JSON.stringify;
  const compiled = fastJson(schema as Parameters<typeof fastJson>[0]);
  const declared = schema.type === "object" ? new Set(Object.keys(schema.properties ?? {})) : undefined;
  return (value) => {
    if (declared && !(isObject(value) && onlyDeclared(value, declared))) return JSON.stringify(value);
    try {
      return compiled(value);
    } catch {
      return JSON.stringify(value);
    }
  };
}

/** A `oneOf` of objects that one member tells apart by a constant: each branch compiled, chosen by that member. */
function discriminated({ oneOf: branches = [], definitions }: JsonSchema): Encode | undefined {
  const first = branches[0]?.properties ?? {};
  const tag = Object.keys(first).find((key) => branches.every((b) => b.type === "object" && b.properties?.[key] && "const" in b.properties[key]));
  if (tag === undefined) return undefined;
  const byTag = new Map(branches.map((branch) => [branch.properties![tag]!.const, compile({ ...branch, ...(definitions ? { definitions } : {}) })]));
  return (value) => (isObject(value) && byTag.get(value[tag]) ? byTag.get(value[tag])!(value) : JSON.stringify(value));
}

function onlyDeclared(value: Record<string, unknown>, declared: ReadonlySet<string>): boolean {
  for (const key in value) if (!declared.has(key)) return false;
  return true;
}

/** A copy of a JSON Schema without the `required` lists of its objects. */
function withoutRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRequired);
  if (typeof node !== "object" || node === null) return node;
  const isSchemaObject = "properties" in node;
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]) => (isSchemaObject && key === "required" && Array.isArray(value) ? [] : [[key, withoutRequired(value)]])),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a JSON Schema has a `oneOf` anywhere in it. */
function hasOneOf(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  return Object.entries(node).some(([key, value]) => key === "oneOf" || hasOneOf(value));
}
