import { startTestServer, type TestAccount, type TestServer } from "@iccid/server/testing";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import { IccidClient, type APIError, type ClientOptions } from "../src/index.js";

// Shared set-up of the real-server tests: one server (SQLite in a temp dir) per test file, clients that
// are closed afterwards, and the assertions every problem answer gets.

export interface RealServer {
  server: TestServer;
  /** A client for this server, by default with the owner's key and a tiny backoff. */
  client(options?: ClientOptions): IccidClient;
  /** A client whose requests are rewritten by `change` before they leave (to play a browser or a broken proxy). */
  rewritingClient(account: TestAccount, change: (opts: Dispatcher.DispatchOptions) => Dispatcher.DispatchOptions): IccidClient;
}

export function useRealServer(): RealServer {
  const clients: IccidClient[] = [];
  const agents: Dispatcher[] = [];
  const real = {} as RealServer;
  real.client = (options = {}) => {
    const c = new IccidClient({
      baseUrl: real.server.url,
      apiKey: real.server.owner.apiKey,
      retryDelays: { initialMs: 5, maxMs: 20 },
      ...options,
    });
    clients.push(c);
    return c;
  };
  real.rewritingClient = (account, change) => {
    const agent = new Agent().compose((dispatch) => (opts, handler) => dispatch(change(opts), handler));
    agents.push(agent);
    return real.client({ apiKey: account.apiKey, dispatcher: agent });
  };
  beforeAll(async () => {
    real.server = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(agents.map((a) => a.close()));
    await real.server?.close();
  });
  return real;
}

/** The error a call rejected with (fails the test when it resolved). */
export async function failure(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected the call to fail");
  return error as APIError;
}

/** Class, status, code, request id (header and field agree) and a detail. */
export function expectProblem(error: APIError, cls: new (...args: never[]) => APIError, status: number, code: string): void {
  expect(error).toBeInstanceOf(cls);
  expect(error.status).toBe(status);
  expect(error.code).toBe(code);
  expect(error.requestId).toMatch(/\S/);
  expect(error.headers["x-request-id"]).toBe(error.requestId);
  expect(error.detail).toMatch(/\S/);
}
