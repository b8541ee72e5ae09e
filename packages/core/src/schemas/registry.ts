import { z } from "zod";

/** The named components of the OpenAPI document: each wire schema registers itself here by id. */
export const apiSchemas = z.registry<{ id: string; description?: string }>();
