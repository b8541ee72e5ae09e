export { IccidDecoder, type CustomPrefix, type DecodeOutcome } from "./decode/decoder.js";
