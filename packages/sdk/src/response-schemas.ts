import * as wire from "@iccid/core";
import type * as Wire from "@iccid/core/types";
import type { ResponseSchema } from "./response-body.js";

// The response schemas the SDK checks bodies against: core's wire schemas, each compiled by zod on its
// first check (core's compiled()), under core's names. Every resource takes its schema from here.

export const LookupResult: ResponseSchema<Wire.LookupResult> = wire.compiled(wire.LookupResult);
export const BatchResult: ResponseSchema<Wire.BatchResult> = wire.compiled(wire.BatchResult);
export const EidResult: ResponseSchema<Wire.EidResult> = wire.compiled(wire.EidResult);
export const EidBatchResult: ResponseSchema<Wire.EidBatchResult> = wire.compiled(wire.EidBatchResult);
export const Usage: ResponseSchema<Wire.Usage> = wire.compiled(wire.Usage);
export const AuditPage: ResponseSchema<Wire.AuditPage> = wire.compiled(wire.AuditPage);
export const Session: ResponseSchema<Wire.Session> = wire.compiled(wire.Session);
export const KeyList: ResponseSchema<Wire.KeyList> = wire.compiled(wire.KeyList);
export const CreatedKey: ResponseSchema<Wire.CreatedKey> = wire.compiled(wire.CreatedKey);
/** A created key, or the record of one created before, replayed without its secret. */
export const CreatedOrReplayed: ResponseSchema<Wire.CreatedKey | Wire.KeyRecord> = wire.compiled(wire.CreatedKey.or(wire.KeyRecord));
