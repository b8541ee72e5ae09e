import { z } from "zod";
import { Timestamp } from "./common.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/session.js";

/**
 * An address with one @ and no spaces. Deliberately loose: `owner@localhost` (a self-hosted server's
 * first account) is a valid address, and sign-in should not second-guess what the operator created.
 * Control characters (NUL among them, which PostgreSQL cannot store) are never part of one.
 */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

export const LoginRequest = z
  .strictObject({
    email: z.string().trim().toLowerCase().max(254).regex(EMAIL_PATTERN, { error: "must be an email address" }),
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

export type LoginRequest = Wire.LoginRequest;
export type Session = Wire.Session;
