import fastJson from "fast-json-stringify";
import { z } from "zod";

/** Turns a value of a schema into its JSON text. */
export type Encode = (value: unknown) => string;

const made = new WeakMap<z.ZodType, Encode>();

/**
 * The JSON encoder of a wire schema, made once per schema: fast-json-stringify compiled from the JSON Schema
 * zod gives for it (`z.toJSONSchema`, as the OpenAPI document has it), or `JSON.stringify` for a schema with
 * a `oneOf` (fast-json-stringify picks a `oneOf` branch by validating the value against each, which costs
 * more than JSON.stringify's whole work). A value that is not of the schema's shape (one the compiled
 * encoder refuses, or not an object where the schema has one) is written by JSON.stringify: the answer
 * still goes out, as it would have without a schema.
 */
export function jsonEncoding(schema: z.ZodType): Encode {
  let encode = made.get(schema);
  if (!encode) made.set(schema, (encode = compile(schema)));
  return encode;
}

function compile(schema: z.ZodType): Encode {
  const jsonSchema = z.toJSONSchema(schema, { target: "draft-7" });
  if (hasOneOf(jsonSchema)) return JSON.stringify;
  const compiled = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  // fast-json-stringify writes anything given for an object as one (`null` as `{}`); JSON.stringify does not.
  const objectRoot = jsonSchema.type === "object";
  return (value) => {
    if (objectRoot && (typeof value !== "object" || value === null || Array.isArray(value))) return JSON.stringify(value);
    try {
      return compiled(value);
    } catch {
      return JSON.stringify(value);
    }
  };
}

/** Whether a JSON Schema has a `oneOf` anywhere in it. */
function hasOneOf(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return false;
  return Object.entries(node).some(([key, value]) => key === "oneOf" || hasOneOf(value));
}
