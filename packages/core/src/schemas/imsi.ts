import { z } from "zod";
import { Country } from "./country.js";
import { apiSchemas } from "./registry.js";
import type * as Wire from "../types/imsi.js";

export const ImsiNetwork = z
  .object({
    name: z.string().describe("The network's name as people know it (its brand)"),
    operator: z.string().nullable().describe("The operating company, when the list names it apart from the brand"),
  })
  .register(apiSchemas, { id: "ImsiNetwork" });

export const ImsiMvno = z
  .object({
    name: z.string().describe("The MVNO's name as its source writes it"),
    imsi_prefix: z.string().describe("The IMSI prefix that matched: the MVNO's range under its host network"),
  })
  .register(apiSchemas, { id: "ImsiMvno" });

export const ImsiAnswer = z
  .object({
    imsi: z.string().describe("The normalised IMSI: 14 or 15 digits"),
    mcc: z.string().length(3),
    mnc: z
      .string()
      .min(2)
      .max(3)
      .nullable()
      .describe("Two or three digits, as the network list numbers the MCC's networks; null when the list cannot tell its length"),
    country: Country.nullable().describe("The MCC's country; null for international codes and codes of no single country"),
    network: ImsiNetwork.nullable().describe("The network the MCC and MNC name, or null when the list names none"),
    mvno: ImsiMvno.nullable().describe("The MVNO whose IMSI range holds the IMSI, where a source names one"),
  })
  .describe("What the IMSI sent beside the ICCID says; present exactly when the request had one")
  .register(apiSchemas, { id: "ImsiAnswer" });

export type ImsiNetwork = Wire.ImsiNetwork;
export type ImsiMvno = Wire.ImsiMvno;
export type ImsiAnswer = Wire.ImsiAnswer;
