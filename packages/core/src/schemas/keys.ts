import { z } from "zod";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/keys.js";

export const KEY_NAME_MAX_LENGTH = 100;

export const CreateKeyRequest = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(KEY_NAME_MAX_LENGTH)
      .regex(/^\P{Cc}*$/u, { error: "must not contain control characters" })
      .optional(),
  })
  .register(apiSchemas, { id: "CreateKeyRequest" });

export const KeyRecord = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    prefix: z.string().describe("The first characters of the key, safe to show"),
    last4: z.string().length(4),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .register(apiSchemas, { id: "KeyRecord" });

export const CreatedKey = KeyRecord.extend({
  key: z.string().describe("The full secret, shown only in this response"),
}).register(apiSchemas, { id: "CreatedKey" });

export const KeyList = z.object({ data: z.array(KeyRecord) }).register(apiSchemas, { id: "KeyList" });

export type CreateKeyRequest = Wire.CreateKeyRequest;
export type KeyRecord = Wire.KeyRecord;
export type CreatedKey = Wire.CreatedKey;
export type KeyList = Wire.KeyList;
