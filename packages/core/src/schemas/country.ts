import { z } from "zod";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/lookup.js";

/** A country as answers name it: its ISO 3166-1 alpha-2 code and its English name. */
export const Country = z
  .object({ iso2: z.string().length(2), name: z.string() })
  .register(apiSchemas, { id: "Country" });
export type Country = Wire.Country;
