import { pino, type Logger } from "pino";
import { redactUrls } from "../auth/redacted-url.js";
import type { CommandSettings } from "./settings.js";

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const HIDDEN = new Set(["level", "time", "msg", "pid", "hostname"]);

/**
 * One pino line (JSON) as a person reads it: ISO time, level, message, then the fields as key=value;
 * a request line reads "GET /path 200 1.2 ms".
 */
export function readableLine(json: string): string {
  const entry = JSON.parse(json) as Record<string, unknown>;
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const isRequest = entry.msg === "request" && typeof entry.method === "string";
  const message = isRequest ? `${entry.method} ${entry.path} ${entry.status} ${Number(entry.ms).toFixed(1)} ms` : String(entry.msg ?? "");
  const shown = isRequest ? new Set([...HIDDEN, "method", "path", "status", "ms"]) : HIDDEN;
  const fields = Object.entries(entry)
    .filter(([key]) => !shown.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [entry.time, level, message, ...fields].join(" ") + "\n";
}

/**
 * The server's logger: JSON lines with ISO times; readable lines instead when `format` says so (a terminal,
 * by default). No line carries a URL's password, whatever logged it (a database URL, an error echoing one).
 */
export function commandLogger(settings: Pick<CommandSettings, "logLevel" | "logFormat">, stdout: NodeJS.WriteStream = process.stdout): Logger {
  const readable = settings.logFormat === "pretty" || (settings.logFormat === "auto" && stdout.isTTY === true);
  const options = { level: settings.logLevel, timestamp: pino.stdTimeFunctions.isoTime, hooks: { streamWrite: redactUrls } };
  return readable ? pino(options, { write: (line: string) => stdout.write(readableLine(line)) }) : pino(options, stdout);
}
