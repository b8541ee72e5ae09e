/** What a key may be used for: `lookup` (single and batch lookups) and `usage:read` (the usage endpoint). */
export const KEY_SCOPES = ["lookup", "usage:read"] as const;
/** The longest grace period a rolled key may keep working for: 7 days. */
export const MAX_ROLL_GRACE_SECONDS = 604_800;
/** How far ahead a key's expires_at may be: 5 years. */
export const MAX_KEY_LIFETIME_DAYS = 5 * 365;
