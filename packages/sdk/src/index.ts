export { IccidClient, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from "./client.js";
export type { ClientOptions, RequestOptions } from "./client.js";
export type { BatchAllChunk, BatchAllChunkSource, BatchAllChunksOptions, BatchAllItem, BatchAllKept, BatchAllOptions, BatchAllProgress } from "./batch-all.js";
export { CsvRows } from "./csv-rows.js";
export type { UsageParams } from "./resources/usage.js";
export type { IccidResource } from "./resources/iccid.js";
export type { EidResource } from "./resources/eid.js";
export type { UsageResource } from "./resources/usage.js";
export type { SessionResource } from "./resources/session.js";
export type { CreateKeyParams, KeysResource, RollKeyParams } from "./resources/keys.js";
export type { AuditResource } from "./resources/audit.js";
export { DEFAULT_RETRY_DELAYS, type RetryDelays, type RetryEvent } from "./retry.js";
export { parseRateLimitFields, parseRetryAfter, type RateLimitInfo } from "./rate-limit-fields.js";
export { SDK_VERSION } from "./version.js";
export * from "./errors.js";
export * from "./error-guards.js";

// Offline tools and wire types from the core, so that SDK users need one import. Only the core's zod-free
// entries: a consumer's compiler reads these declarations without loading zod.
export {
  API_KEY_PATTERN,
  eidCheckDigits,
  isWellFormedApiKey,
  luhnCheckDigit,
  normalizeIccid,
  parseEid,
  parseIccid,
  parseImsi,
  BATCH_MAX_ITEMS,
  LOOKUP_ROW_COLUMNS,
  rowOutcome,
} from "@iccid/core/grammar";
export type {
  EidChecks,
  EidErrorCode,
  EidParseResult,
  EidWarning,
  EidWarningCode,
  Granularity,
  IccidErrorCode,
  IccidGrammarError,
  IccidParseResult,
  IccidWarning,
  IccidWarningCode,
  ImsiErrorCode,
  LookupWarningCode,
  ParsedImsi,
  RejectedImsi,
  LuhnStatus,
  ParsedEid,
  ParsedIccid,
  ProblemCode,
  RejectedEid,
  RejectedIccid,
  RowOutcome,
} from "@iccid/core/grammar";
export type {
  AuditAction,
  AuditActor,
  AuditEvent,
  AuditPage,
  AuditQuery,
  BatchItem,
  BatchItemError,
  BatchItemFailed,
  BatchItemOk,
  BatchRequest,
  BatchResult,
  BatchSummary,
  Country,
  EidBatchItem,
  EidBatchItemError,
  EidBatchItemFailed,
  EidBatchItemOk,
  EidBatchRequest,
  EidBatchResult,
  EidLookupRequest,
  EidManufacturer,
  EidResult,
  ImsiAnswer,
  ImsiMvno,
  ImsiNetwork,
  CreateKeyRequest,
  CreatedKey,
  FieldError,
  HomeNetwork,
  RollKeyRequest,
  Issuer,
  KeyList,
  KeyRecord,
  KeyScope,
  LoginRequest,
  LookupChecks,
  LookupRequest,
  LookupResult,
  LookupWarning,
  NumberingCandidate,
  Problem,
  Session,
  Subscription,
  SubscriptionStatus,
  Usage,
  UsageBucket,
  UsageByKey,
  UsageQuery,
} from "@iccid/core/types";
