import { z } from "zod";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";

export const LoginRequest = z
  .strictObject({
    email: z.string().trim().toLowerCase().max(254).pipe(z.email({ error: "must be an email address" })),
    password: z.string().min(1, { error: "must not be empty" }).max(1024),
  })
  .register(apiSchemas, { id: "LoginRequest" });

export const Session = z
  .object({
    account: z.object({ id: z.string(), email: z.string() }),
    created_at: Timestamp,
    expires_at: Timestamp.describe("When the session ends unless used again (never later than the absolute expiry)"),
  })
  .register(apiSchemas, { id: "Session" });

export type LoginRequest = z.infer<typeof LoginRequest>;
export type Session = z.infer<typeof Session>;
