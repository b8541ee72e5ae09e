/** `POST /api/v1/session` request body. */
export interface LoginRequest {
  /** The account's email address. */
  email: string;
  /** The account's password. */
  password: string;
}

/** A web session: `POST` and `GET /api/v1/session`'s answer. */
export interface Session {
  /** The signed-in account. */
  account: {
    /** The account's id. */
    id: string;
    /** The account's email address. */
    email: string;
  };
  /** When the session began (RFC 3339, UTC). */
  created_at: string;
  /** When the session ends unless used again (never later than the absolute expiry). */
  expires_at: string;
}
