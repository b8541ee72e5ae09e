import { z } from "zod";
import { PROBLEM_CODE_LIST } from "../problem-codes.js";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/problem.js";

export const FieldError = z
  .object({
    pointer: z.string().describe("JSON Pointer (RFC 6901) to the offending field"),
    code: z.string(),
    detail: z.string(),
  })
  .register(apiSchemas, { id: "FieldError" });

/** RFC 9457 problem details with this API's extension members. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: z.enum(PROBLEM_CODE_LIST as [string, ...string[]]),
    detail: z.string(),
    request_id: z.string(),
    errors: z.array(FieldError).optional(),
    retry_after: z.number().int().optional().describe("Seconds to wait (429)"),
    resets_at: Timestamp.optional().describe("When the quota resets (quota_exceeded)"),
    required_scope: z.string().optional().describe("The scope the API key lacks (insufficient_scope)"),
  })
  .register(apiSchemas, { id: "Problem" });

export const Health = z
  .object({
    status: z.enum(["ok", "degraded"]).describe("degraded: serving, with something it depends on missing (detail says what)"),
    detail: z.string().optional().describe("Present when degraded: what is missing and what that means for answers"),
  })
  .register(apiSchemas, { id: "Health" });

export type FieldError = Wire.FieldError;
export type Problem = Wire.Problem;
