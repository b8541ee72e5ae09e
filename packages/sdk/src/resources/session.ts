import { Session as SessionSchema } from "../response-schemas.js";
import type { Session } from "@iccid/core/types";
import type { IccidClient, RequestOptions } from "../client.js";

/** The web session that the key endpoints need. The client keeps the session cookie itself. */
export class SessionResource {
  constructor(private readonly client: IccidClient) {}

  /** The session value, to save and pass back as `sessionToken` in a later process; undefined when logged out. */
  get token(): string | undefined {
    return this.client.cookie.value;
  }

  login(email: string, password: string, options?: RequestOptions): Promise<Session> {
    return this.client.call({ method: "POST", path: "/session", auth: "none", body: { email, password }, schema: SessionSchema }, options);
  }

  current(options?: RequestOptions): Promise<Session> {
    return this.client.call({ method: "GET", path: "/session", auth: "session", schema: SessionSchema }, options);
  }

  /** Ends every session of the account (browsers, other processes, this one) and forgets the cookie (also when the call fails). */
  async logoutEverywhere(options?: RequestOptions): Promise<void> {
    try {
      await this.client.call({ method: "DELETE", path: "/sessions", auth: "session", schema: null }, options);
    } finally {
      this.client.cookie.value = undefined;
    }
  }

  /** Ends the session on the server and forgets the cookie (also when the server call fails). */
  async logout(options?: RequestOptions): Promise<void> {
    try {
      await this.client.call({ method: "DELETE", path: "/session", auth: "session", schema: null }, options);
    } finally {
      this.client.cookie.value = undefined;
    }
  }
}
