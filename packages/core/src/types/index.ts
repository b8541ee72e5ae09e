// The wire types as plain interfaces, free of zod: the `@iccid/core/types` entry, which the SDK's public
// declarations import so that its users' compilers never load zod.
export type * from "./audit.js";
export type * from "./batch.js";
export type * from "./eid.js";
export type * from "./imsi.js";
export type * from "./keys.js";
export type * from "./lookup.js";
export type * from "./problem.js";
export type * from "./session.js";
export type * from "./usage.js";
