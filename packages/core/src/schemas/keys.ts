import { z } from "zod";
import { KEY_SCOPES, MAX_ROLL_GRACE_SECONDS } from "../key-scopes.js";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/keys.js";

export const KEY_NAME_MAX_LENGTH = 100;


export const KeyScope = z.enum(KEY_SCOPES).register(apiSchemas, { id: "KeyScope" });

const KeyName = z
  .string()
  .trim()
  .min(1)
  .max(KEY_NAME_MAX_LENGTH)
  .regex(/^\P{Cc}*$/u, { error: "must not contain control characters" });

export const CreateKeyRequest = z
  .strictObject({
    name: KeyName.optional(),
    scopes: z
      .array(KeyScope)
      .min(1)
      .refine((scopes) => new Set(scopes).size === scopes.length, { error: "must not repeat a scope" })
      .optional()
      .describe("Default: every scope"),
    expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .describe("When the key stops working (RFC 3339), in the future and at most 5 years ahead; default: never"),
  })
  .register(apiSchemas, { id: "CreateKeyRequest" });

export const RollKeyRequest = z
  .strictObject({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROLL_GRACE_SECONDS)
      .optional()
      .describe("How long the old key keeps working, 0 to 604800 seconds; default 0"),
  })
  .register(apiSchemas, { id: "RollKeyRequest" });

export const KeyRecord = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    prefix: z.string().describe("The first characters of the key, safe to show"),
    last4: z.string().length(4),
    scopes: z.array(KeyScope),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .register(apiSchemas, { id: "KeyRecord" });

export const CreatedKey = KeyRecord.extend({
  key: z.string().describe("The full secret, shown only in this response"),
}).register(apiSchemas, { id: "CreatedKey" });

export const KeyList = z.object({ data: z.array(KeyRecord) }).register(apiSchemas, { id: "KeyList" });

export type KeyScope = Wire.KeyScope;
export type CreateKeyRequest = Wire.CreateKeyRequest;
export type RollKeyRequest = Wire.RollKeyRequest;
export type KeyRecord = Wire.KeyRecord;
export type CreatedKey = Wire.CreatedKey;
export type KeyList = Wire.KeyList;
