export * from "./batch.js";
export * from "./common.js";
export * from "./keys.js";
export * from "./lookup.js";
export * from "./problem.js";
export * from "./registry.js";
export * from "./session.js";
export * from "./usage.js";
