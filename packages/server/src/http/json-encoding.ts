import fastJson from "fast-json-stringify";
import { z } from "zod";
import { sharedOnce } from "./shared-json.js";

/** Turns a value of a schema into its JSON text. */
export type Encode = (value: unknown) => string;

type JsonSchema = Record<string, unknown> & { type?: unknown; properties?: Record<string, JsonSchema>; definitions?: unknown };

const made = new WeakMap<z.ZodType, Encode>();

/**
 * The JSON encoder of a wire schema, made once per schema from the JSON Schema zod gives for it
 * (`z.toJSONSchema`, as the OpenAPI document has it), compiled by fast-json-stringify:
 * - an object of scalar members is compiled whole, and the JSON of a frozen one made once and reused
 *   (shared-json.ts);
 * - an object with nested members (objects, arrays, nullable objects) is written member by member, each
 *   scalar one by fast-json-stringify compiled for it, each nested one by its own encoder (see `composed`);
 * - a value with a `oneOf` in it (a union, such as a batch item) is written by JSON.stringify:
 *   fast-json-stringify would pick a `oneOf` branch by validating the value against each, which costs
 *   more than JSON.stringify's whole work (the batch answer writes its items by JSON.stringify anyway).
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
  if (schema.type === "object" && Object.values(schema.properties ?? {}).some(isNested)) return composed(schema);
  if (hasOneOf(schema)) return JSON.stringify;
  const compiled = fastJson(schema as Parameters<typeof fastJson>[0]);
  const declared = schema.type === "object" ? new Set(Object.keys(schema.properties ?? {})) : undefined;
  const encode: Encode = (value) => {
    if (declared && !(isObject(value) && onlyDeclared(value, declared))) return JSON.stringify(value);
    try {
      return compiled(value);
    } catch {
      return JSON.stringify(value);
    }
  };
  return declared ? sharedOnce(encode) : encode;
}

/** A member that holds an object, an array or a choice (a nullable object) rather than one scalar. */
function isNested(member: JsonSchema): boolean {
  return member.type === "object" || member.type === "array" || "anyOf" in member || "oneOf" in member;
}

/**
 * An object with nested members, written member by member in schema order: each scalar member by
 * fast-json-stringify compiled for that member's schema, each nested member by its own encoder,
 * so that a shared frozen object inside is written once for all the results that hold it. An absent
 * (undefined) member is left out, as JSON.stringify leaves it out; an object with an undeclared member is
 * written by JSON.stringify. A frozen object whose members are all frozen too (the decoder's shared issuer
 * with its country) is written once and its JSON reused (shared-json.ts).
 */
function composed(schema: JsonSchema): Encode {
  const members = schema.properties ?? {};
  const keys = Object.keys(members);
  const declared = new Set(keys);
  const extra = schema.definitions ? { definitions: schema.definitions } : {};
  const parts = keys.map((key): Encode => {
    const name = JSON.stringify(key) + ":";
    const schema = { ...members[key]!, ...extra };
    const encode = isNested(schema) ? member(schema) : fastJson(schema as Parameters<typeof fastJson>[0]);
    return (value) => name + encode(value);
  });
  const encode: Encode = (value) => {
    if (!isObject(value) || !onlyDeclared(value, declared)) return JSON.stringify(value);
    try {
      let json = "{";
      let first = true;
      for (let i = 0; i < parts.length; i++) {
        const v = value[keys[i]!];
        if (v === undefined) continue;
        json += (first ? "" : ",") + parts[i]!(v);
        first = false;
      }
      return json + "}";
    } catch {
      return JSON.stringify(value);
    }
  };
  return sharedOnce(encode, deeplyFrozen);
}

/** Whether an object and everything in it is frozen, so that its JSON can never change. */
function deeplyFrozen(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  for (const member of Object.values(value)) if (typeof member === "object" && member !== null && !deeplyFrozen(member)) return false;
  return true;
}

/** A nested member's encoder: a nullable one (`anyOf` of a schema and null), an array, or any other schema. */
function member(schema: JsonSchema): Encode {
  const { anyOf, definitions } = schema as JsonSchema & { anyOf?: JsonSchema[] };
  const extra = definitions ? { definitions } : {};
  if (anyOf?.length === 2 && anyOf.some((branch) => branch.type === "null")) {
    const inner = member({ ...anyOf.find((branch) => branch.type !== "null")!, ...extra });
    return (value) => (value === null ? "null" : inner(value));
  }
  const items = (schema as JsonSchema & { items?: JsonSchema }).items;
  if (schema.type === "array" && items && !Array.isArray(items)) {
    const item = member({ ...items, ...extra });
    return (value) => {
      if (!Array.isArray(value)) return JSON.stringify(value);
      let json = "[";
      // As JSON.stringify: a hole or undefined in an array is null.
      for (let i = 0; i < value.length; i++) json += (i ? "," : "") + (value[i] === undefined ? "null" : item(value[i]));
      return json + "]";
    };
  }
  return compile(schema);
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
