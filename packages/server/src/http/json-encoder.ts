import type { z } from "zod";

/**
 * A JSON encoder compiled from a wire schema. It writes exactly JSON.stringify(value) for a value of the
 * schema's shape, with the keys in schema order (the order the services build them in), for less CPU:
 * - each object kind is one generated concatenation: its keys are in the source, each field is read
 *   with its own property access (no loop over keys, no escaping of keys);
 * - the JSON of a frozen object of plain fields is made once, as one flat string, and reused: the decoder
 *   shares one frozen country, issuer, checks and warning object among all the results that name it;
 * - strings of printable ASCII are quoted without a call into JSON.stringify, and a field's string that
 *   is the same as the last one found plain is not checked again;
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
// Up to this length a loop checks a string for less than the call into the regular expression costs.
const LOOP_CHECK_MAX = 8;

function isPlain(text: string): boolean {
  if (text.length > LOOP_CHECK_MAX) return PLAIN.test(text);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/** `make(schema)` made once per schema, whoever asks for it. */
function perSchema<V>(make: (schema: ZodInternals) => V): (schema: ZodInternals) => V {
  const made = new WeakMap<ZodInternals, V>();
  return (schema) => {
    let value = made.get(schema);
    if (value === undefined) made.set(schema, (value = make(schema)));
    return value;
  };
}

/**
 * The check of a string schema's values, one per schema (its writer and the object writer that quotes it
 * in place share it), remembering the last one found plain: a field that keeps its value from one result
 * to the next (a data version, a calling code) is checked once, not once per result.
 */
const plainCheckOf = perSchema((): ((text: string) => boolean) => {
  let last: string | undefined;
  return (text) => text === last || (isPlain(text) && ((last = text), true));
});

// The JSON of small whole numbers (a batch item's index, a length), made once.
const SMALL_INTEGERS = Array.from({ length: 1024 }, (_, n) => `${n}`);
const PRIMITIVE_KINDS = new Set(["string", "number", "boolean", "enum", "literal", "null"]);

const anyValue: Write = (value) => JSON.stringify(value) ?? "null";

export function jsonEncoder<S extends z.ZodType>(schema: S): JsonEncoder<z.output<S>> {
  const root = schema as unknown as ZodInternals;
  const encode = compile(root);
  return { encode, encodeTo: piecewise(root, encode) };
}

// One writer per schema, whoever asks (the single-lookup route, the batch answer, its pieces): writers
// keep the JSON of shared frozen objects, which is then made once for all of them.
const compile = perSchema(build);

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
    case "string": {
      const plain = plainCheckOf(schema);
      return (value) => (typeof value === "string" && plain(value) ? `"${value}"` : anyValue(value));
    }
    case "number":
      return (value) =>
        typeof value !== "number" ? anyValue(value) : (SMALL_INTEGERS[value] ?? (Number.isFinite(value) ? `${value}` : "null"));
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
  // The generated source holds nothing but the schema's keys, each quoted by JSON.stringify. A field that
  // is undefined (an absent optional one) is left out by JSON.stringify, which then writes the whole
  // object. When every string field is plain, their quotes are written as part of the keys around them:
  // fewer pieces for the answer's string to be made of.
  const reads = keys.map((key, i) => `const f${i} = v[${JSON.stringify(key)}];`).join("\n");
  const absent = keys.map((_, i) => `f${i} === undefined`).join(" || ") || "false";
  const strings = keys.map((key) => shape[key]!._zod.def.type === "string");
  const checks = keys.map((key, i) => (strings[i] ? plainCheckOf(shape[key]!) : undefined));
  // A string equal to the string field before it (an ICCID sent as it is written: input and iccid) is
  // plain when that one is, which the check before it found.
  const stringFields = keys.flatMap((_, i) => (strings[i] ? [i] : []));
  const plainStrings =
    stringFields.map((i, n) => `typeof f${i} === "string" && (${n ? `f${i} === f${stringFields[n - 1]} || ` : ""}p[${i}](f${i}))`).join(" && ") || "true";
  const json = (quoteStrings: boolean): string =>
    concatenation([
      "{",
      ...keys.flatMap((key, i) => {
        const name = `${i ? "," : ""}${JSON.stringify(key)}:`;
        return quoteStrings && strings[i] ? [name + '"', { expression: `f${i}` }, '"'] : [name, { expression: `w[${i}](f${i})` }];
      }),
      "}",
    ]);
  const write = new Function(
    "w",
    "isObject",
    "anyValue",
    "p",
    `return function (v) {
      if (!isObject(v)) return anyValue(v);
      ${reads}
      if (${absent}) return anyValue(v);
      if (${plainStrings}) return ${json(true)};
      return ${json(false)};
    }`,
  )(writers, isObject, anyValue, checks) as Write;
  const plain = keys.every((key) => PRIMITIVE_KINDS.has(unwrapNullable(shape[key]!)._zod.def.type));
  return plain ? frozenOnce(write) : write;
}

/**
 * The source of an expression joining text and expressions (each known to give a string) with `+`, each
 * run of text one string literal. (A template literal would also convert each expression's value to a
 * string, which costs a call even for a string.)
 */
function concatenation(parts: ReadonlyArray<string | { expression: string }>): string {
  const terms: string[] = [];
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") {
      text += part;
      continue;
    }
    if (text) terms.push(JSON.stringify(text));
    terms.push(part.expression);
    text = "";
  }
  if (text) terms.push(JSON.stringify(text));
  return terms.join(" + ");
}

/**
 * A writer that makes the JSON of a frozen object once and hands out the same string after: its fields
 * cannot change, and an object once frozen stays so. The string kept is flat (one run of characters):
 * as it was made, it is a tree of the pieces it was joined from, and every answer it went into would walk
 * that tree again to copy it.
 */
function frozenOnce(write: Write): Write {
  const frozen = new WeakMap<object, string>();
  return (value) => {
    let known = frozen.get(value as object);
    if (known !== undefined) return known;
    known = write(value);
    if (isObject(value) && Object.isFrozen(value)) frozen.set(value, flat(known));
    return known;
  };
}

/** The same text as one flat string: JSON text, well-formed UTF-16, survives UTF-8 both ways unchanged. */
const flat = (json: string): string => Buffer.from(json, "utf8").toString("utf8");

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
  const writerOf = lookup(byTag);
  return (value) => ((isObject(value) && writerOf(value[discriminator])) || anyValue)(value);
}

/** Enum and literal values: their JSON made once. */
function constants(values: unknown[]): Write {
  const jsonOf = lookup(new Map(values.map((v) => [v, JSON.stringify(v)])));
  return (value) => jsonOf(value) ?? anyValue(value);
}

/** `map.get`, by comparing with each key in turn when there are only a few (cheaper than hashing the key). */
function lookup<V>(map: ReadonlyMap<unknown, V>): (key: unknown) => V | undefined {
  if (map.size > 4) return (key) => map.get(key);
  const keys = [...map.keys()];
  const values = [...map.values()];
  return (key) => {
    for (let i = 0; i < keys.length; i++) if (keys[i] === key) return values[i];
    return undefined;
  };
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
