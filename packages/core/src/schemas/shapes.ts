import type { z } from "zod";
import type { EidChecks, EidWarning } from "../eid.js";
import type * as Wire from "../types/index.js";
import type { AuditActor, AuditEvent, AuditPage, AuditQuery } from "./audit.js";
import type { BatchItem, BatchItemError, BatchRequest, BatchResult, BatchSummary } from "./batch.js";
import type { CreatedKey, CreateKeyRequest, KeyList, KeyRecord, KeyScope, RollKeyRequest } from "./keys.js";
import type { Country } from "./country.js";
import type { Checks, HomeNetwork, IccidWarningSchema, Issuer, LookupRequest, LookupResult, NumberingCandidate } from "./lookup.js";
import type { EidBatchItem, EidBatchItemError, EidBatchRequest, EidBatchResult, EidChecksSchema, EidLookupRequest, EidManufacturer, EidResult, EidWarningSchema } from "./eid.js";
import type { ImsiAnswer, ImsiMvno, ImsiNetwork } from "./imsi.js";
import type { FieldError, Problem } from "./problem.js";
import type { LoginRequest, Session } from "./session.js";
import type { Subscription, Usage, UsageBucket, UsageByKey, UsageQuery } from "./usage.js";

// The build's proof that each schema and its interface in ../types describe one shape: a field added,
// dropped or retyped on one side and not the other fails `tsc` here.

/** True exactly when A and B are the same type, optional fields and literal types included. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Agrees<Schema extends z.ZodType, Interface> = Same<z.output<Schema>, Interface>;
type Holds<T extends true[]> = T;

export type SchemasMatchTheirInterfaces = Holds<
  [
    Agrees<typeof LookupRequest, Wire.LookupRequest>,
    Agrees<typeof IccidWarningSchema, Wire.LookupWarning>,
    Agrees<typeof NumberingCandidate, Wire.NumberingCandidate>,
    Agrees<typeof Country, Wire.Country>,
    Agrees<typeof Issuer, Wire.Issuer>,
    Agrees<typeof HomeNetwork, Wire.HomeNetwork>,
    Agrees<typeof Checks, Wire.LookupChecks>,
    Agrees<typeof LookupResult, Wire.LookupResult>,
    Agrees<typeof BatchRequest, Wire.BatchRequest>,
    Agrees<typeof BatchItemError, Wire.BatchItemError>,
    Agrees<typeof BatchItem, Wire.BatchItem>,
    Agrees<typeof BatchSummary, Wire.BatchSummary>,
    Agrees<typeof BatchResult, Wire.BatchResult>,
    Agrees<typeof CreateKeyRequest, Wire.CreateKeyRequest>,
    Agrees<typeof KeyRecord, Wire.KeyRecord>,
    Agrees<typeof CreatedKey, Wire.CreatedKey>,
    Agrees<typeof KeyList, Wire.KeyList>,
    Agrees<typeof KeyScope, Wire.KeyScope>,
    Agrees<typeof RollKeyRequest, Wire.RollKeyRequest>,
    Same<z.input<typeof AuditQuery>, Wire.AuditQuery>,
    Agrees<typeof AuditActor, Wire.AuditActor>,
    Agrees<typeof AuditEvent, Wire.AuditEvent>,
    Agrees<typeof AuditPage, Wire.AuditPage>,
    Agrees<typeof LoginRequest, Wire.LoginRequest>,
    Agrees<typeof Session, Wire.Session>,
    Same<z.input<typeof UsageQuery>, Wire.UsageQuery>,
    Agrees<typeof Subscription, Wire.Subscription>,
    Agrees<typeof UsageBucket, Wire.UsageBucket>,
    Agrees<typeof UsageByKey, Wire.UsageByKey>,
    Agrees<typeof Usage, Wire.Usage>,
    Agrees<typeof FieldError, Wire.FieldError>,
    Agrees<typeof Problem, Wire.Problem>,
    Agrees<typeof ImsiNetwork, Wire.ImsiNetwork>,
    Agrees<typeof ImsiMvno, Wire.ImsiMvno>,
    Agrees<typeof ImsiAnswer, Wire.ImsiAnswer>,
    Agrees<typeof EidLookupRequest, Wire.EidLookupRequest>,
    Agrees<typeof EidBatchRequest, Wire.EidBatchRequest>,
    Agrees<typeof EidWarningSchema, EidWarning>,
    Agrees<typeof EidChecksSchema, EidChecks>,
    Agrees<typeof EidManufacturer, Wire.EidManufacturer>,
    Agrees<typeof EidResult, Wire.EidResult>,
    Agrees<typeof EidBatchItemError, Wire.EidBatchItemError>,
    Agrees<typeof EidBatchItem, Wire.EidBatchItem>,
    Agrees<typeof EidBatchResult, Wire.EidBatchResult>,
  ]
>;
