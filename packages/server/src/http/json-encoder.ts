import type { z } from "zod";

/**
 * A JSON encoder compiled from a wire schema. It writes exactly JSON.stringify(value) for a value of the
 * schema's shape, with the keys in schema order (the order the services build them in), for less CPU:
 * - each object kind is one generated template literal: its keys are in the source, each field is read
 *   with its own property access (no loop over keys, no escaping of keys);
 * - the JSON of a frozen object of plain fields is made once and reused: the decoder shares one frozen
 *   country, issuer and warning object among all the results that name it;
 * - strings of printable ASCII are quoted without a call into JSON.stringify;
 * - `encodeTo` hands a large answer over in pieces of a few KB as it goes, so that no string of the whole
 *   answer is ever built and flattened (that flattening cost as much as the encoding).
 * Any other kind, or a value not of the schema's shape, is written by JSON.stringify, so a field added to
 * a schema needs no work here.
 */
export interface JsonEncoder<T> {
  /** The JSON text of `value`. */
  encode(value: T): string;
  /** The JSON text of `value`, handed to `add` in order, in pieces. */
  encodeTo(value: T, add: (piece: string) => void): void;
}

type Write = (value: unknown) => string;

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string } };
}

// Printable ASCII except the quote and the backslash: such a string is its own JSON between quotes.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const PRIMITIVE_KINDS = new Set(["string", "number", "boolean", "enum", "literal", "null"]);

const anyValue: Write = (value) => JSON.stringify(value) ?? "null";

export function jsonEncoder<S extends z.ZodType>(schema: S): JsonEncoder<z.output<S>> {
  const root = schema as unknown as ZodInternals;
  const encode = compile(root);
  return { encode, encodeTo: piecewise(root, encode) };
}

// One writer per schema, whoever asks (the single-lookup route, the batch answer, its pieces): writers
// keep the JSON of shared frozen objects, which is then made once for all of them.
const compiled = new WeakMap<ZodInternals, Write>();

function compile(schema: ZodInternals): Write {
  let write = compiled.get(schema);
  if (!write) compiled.set(schema, (write = build(schema)));
  return write;
}

function build(schema: ZodInternals): Write {
  const def = schema._zod.def;
  switch (def.type) {
    case "object":
      return objectWriter(def.shape as Record<string, ZodInternals>);
    case "array":
      return arrayWriter(compile(def.element as ZodInternals));
    case "union":
      return def.discriminator ? unionWriter(def.discriminator as string, def.options as ZodInternals[]) : anyValue;
    case "nullable": {
      const inner = compile(def.innerType as ZodInternals);
      return (value) => (value === null ? "null" : inner(value));
    }
    case "string":
      return (value) => (typeof value === "string" && PLAIN.test(value) ? `"${value}"` : anyValue(value));
    case "number":
      return (value) => (typeof value === "number" && Number.isFinite(value) ? `${value}` : anyValue(value));
    case "boolean":
      return (value) => (value === true ? "true" : value === false ? "false" : anyValue(value));
    case "enum":
      return constants(Object.values(def.entries as Record<string, unknown>));
    case "literal":
      return constants(def.values as unknown[]);
    default:
      return anyValue;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function objectWriter(shape: Record<string, ZodInternals>): Write {
  const keys = Object.keys(shape);
  const writers = keys.map((key) => compile(shape[key]!));
  // The generated source holds nothing but the schema's keys, each quoted by JSON.stringify (and escaped
  // for the template literal). A field that is undefined (an absent optional one) is left out by
  // JSON.stringify, which then writes the whole object. When every string field is plain, their quotes
  // are written as part of the keys around them: fewer pieces for the answer's string to be made of.
  const reads = keys.map((key, i) => `const f${i} = v[${JSON.stringify(key)}];`).join("\n");
  const absent = keys.map((_, i) => `f${i} === undefined`).join(" || ") || "false";
  const strings = keys.map((key) => shape[key]!._zod.def.type === "string");
  const plainStrings = keys.flatMap((_, i) => (strings[i] ? [`typeof f${i} === "string" && PLAIN.test(f${i})`] : [])).join(" && ") || "true";
  const prefix = (key: string, i: number) => `${i ? "," : ""}${JSON.stringify(key).replace(/[`$\\]/g, "\\$&")}:`;
  const template = keys.map((key, i) => `${prefix(key, i)}\${w[${i}](f${i})}`).join("");
  const quoted = keys.map((key, i) => (strings[i] ? `${prefix(key, i)}"\${f${i}}"` : `${prefix(key, i)}\${w[${i}](f${i})}`)).join("");
  const write = new Function(
    "w",
    "isObject",
    "anyValue",
    "PLAIN",
    `return function (v) {
      if (!isObject(v)) return anyValue(v);
      ${reads}
      if (${absent}) return anyValue(v);
      if (${plainStrings}) return \`{${quoted}}\`;
      return \`{${template}}\`;
    }`,
  )(writers, isObject, anyValue, PLAIN) as Write;
  const plain = keys.every((key) => PRIMITIVE_KINDS.has(unwrapNullable(shape[key]!)._zod.def.type));
  if (!plain) return write;
  const frozen = new WeakMap<object, string>();
  return (value) => {
    if (!isObject(value) || !Object.isFrozen(value)) return write(value);
    let known = frozen.get(value);
    if (known === undefined) {
      known = write(value);
      frozen.set(value, known);
    }
    return known;
  };
}

/** The schema inside nullable and optional wrappers: an absent optional field is as plain as a null one. */
function unwrapNullable(schema: ZodInternals): ZodInternals {
  const def = schema._zod.def;
  return def.type === "nullable" || def.type === "optional" ? unwrapNullable(def.innerType as ZodInternals) : schema;
}

function arrayWriter(element: Write): Write {
  return (value) => {
    if (!Array.isArray(value)) return anyValue(value);
    let text = "";
    for (let i = 0; i < value.length; i++) text += `${i ? "," : ""}${arrayItem(element, value[i])}`;
    return `[${text}]`;
  };
}

/** As JSON.stringify: a hole or undefined in an array is null. */
const arrayItem = (element: Write, v: unknown): string => (v === undefined ? "null" : element(v));

function unionWriter(discriminator: string, options: ZodInternals[]): Write {
  const byTag = new Map<unknown, Write>();
  for (const option of options) {
    const tag = (option._zod.def.shape as Record<string, ZodInternals>)[discriminator]!._zod.def;
    const write = compile(option);
    for (const v of (tag.values as unknown[] | undefined) ?? []) byTag.set(v, write);
  }
  return (value) => ((isObject(value) && byTag.get(value[discriminator])) || anyValue)(value);
}

/** Enum and literal values: their JSON made once. */
function constants(values: unknown[]): Write {
  const known = new Map(values.map((v) => [v, JSON.stringify(v)]));
  return (value) => known.get(value) ?? anyValue(value);
}

/**
 * `encodeTo` for a schema: an object's array fields go out one element at a time; everything else as one
 * piece. The pieces joined are exactly `encode(value)`.
 */
function piecewise(schema: ZodInternals, encode: Write): JsonEncoder<unknown>["encodeTo"] {
  const def = schema._zod.def;
  if (def.type !== "object") return (value, add) => add(encode(value));
  const fields = Object.entries(def.shape as Record<string, ZodInternals>).map(([key, field], i) => {
    const prefix = `${i ? "," : "{"}${JSON.stringify(key)}:`;
    const fieldDef = field._zod.def;
    if (fieldDef.type !== "array") {
      const write = compile(field);
      return { key, write: (v: unknown, add: (piece: string) => void) => add(prefix + write(v)) };
    }
    const element = compile(fieldDef.element as ZodInternals);
    return {
      key,
      write: (v: unknown, add: (piece: string) => void) => {
        if (!Array.isArray(v)) return add(prefix + anyValue(v));
        add(`${prefix}[`);
        for (let i = 0; i < v.length; i++) add(`${i ? "," : ""}${arrayItem(element, v[i])}`);
        add("]");
      },
    };
  });
  const arrays = Object.keys(def.shape as object).filter((key) => (def.shape as Record<string, ZodInternals>)[key]!._zod.def.type === "array");
  // Only a long array is worth its pieces; anything else is one piece, made by `encode`.
  const long = (value: Record<string, unknown>) => arrays.some((key) => Array.isArray(value[key]) && (value[key] as unknown[]).length > 16);
  return (value, add) => {
    if (!isObject(value) || !long(value) || fields.some((f) => value[f.key] === undefined)) return add(encode(value));
    for (const field of fields) field.write(value[field.key], add);
    add("}");
  };
}
