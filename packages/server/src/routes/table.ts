import { accountPageRoutes } from "./account-page.js";
import { accountUsageRoute } from "./account-usage.js";
import { auditRoute } from "./audit.js";
import { eidRoutes } from "./eid.js";
import { iccidRoutes } from "./iccid.js";
import { keyRoutes } from "./keys.js";
import { errorsPageRoute } from "./errors-page.js";
import { apiDocumentRoute, healthRoutes } from "./meta.js";
import type { Route } from "./route.js";
import { sessionRoutes } from "./session.js";
import { usageRoute } from "./usage.js";

/**
 * Every endpoint the server answers: what createApp routes, what the OpenAPI document describes (in this
 * order) and what the contract test calls. Methods of one path stay together, in the order the Allow
 * header of a 405 lists them.
 */
export const ROUTE_TABLE: readonly Route[] = [
  ...healthRoutes,
  apiDocumentRoute,
  ...iccidRoutes,
  ...eidRoutes,
  usageRoute,
  accountUsageRoute,
  ...sessionRoutes,
  ...keyRoutes,
  auditRoute,
  ...accountPageRoutes,
  errorsPageRoute,
];
