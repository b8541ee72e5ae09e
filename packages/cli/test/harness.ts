import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTerminal, shellQuote } from "@iccid/server/testing";
import { expect } from "vitest";

export const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const BIN = join(REPO_ROOT, "packages/cli/dist/bin.js");
export const EXAMPLES = join(REPO_ROOT, "examples");

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** The terminal's width, for iccidOnTty (default 160). */
  columns?: number;
}

export function tempDir(prefix = "iccid-cli-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A clean environment for the binary: no inherited ICCID_* or colour settings from the developer's
 * shell, and a private config directory, so that tests never read or write a real config.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tempDir("iccid-home-"), LANG: "C.UTF-8", TERM: "xterm-256color" };
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

function collect(child: ChildProcess): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `node dist/bin.js …args` with stdout and stderr as pipes. */
export function iccid(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), cwd: options.cwd ?? REPO_ROOT });
  child.stdin.end(options.input ?? "");
  return collect(child);
}

/** Starts the binary and hands back the child, for tests that signal it mid-run. */
export function spawnIccid(args: readonly string[], options: RunOptions = {}): { child: ChildProcess; done: Promise<RunResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(options.env), cwd: options.cwd ?? REPO_ROOT });
  child.stdin.end(options.input ?? "");
  return { child, done: collect(child) };
}

/** Copies stdin to stdout a block every few milliseconds: a pager, or a copy over a slow network. */
const SLOW_READER = `
const input = process.stdin;
input.on("readable", () => {}); // stays paused: the timer reads
const timer = setInterval(() => {
  const block = input.read(8192);
  if (block) process.stdout.write(block);
}, 5);
input.on("end", () => clearInterval(timer));
`;

/**
 * Runs the binary with its stdout on an OS pipe (as in a shell, 64 KB) read slowly by another process:
 * the binary writes far faster than that, so whatever it has not flushed when it exits is lost. The
 * status is the binary's (pipefail; the reader always ends with 0).
 */
export function iccidReadSlowly(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const script = `"$@" | ${shellQuote(process.execPath)} -e ${shellQuote(SLOW_READER)}`;
  const child = spawn("bash", ["-o", "pipefail", "-c", script, "bash", process.execPath, BIN, ...args], {
    env: cleanEnv(options.env),
    cwd: options.cwd ?? REPO_ROOT,
  });
  child.stdin.end(options.input ?? "");
  return collect(child);
}

/**
 * Runs the binary with its stdout piped into `head -n lines`, which stops reading after that many lines, as
 * a user peeking at an output does: `stdout` is what head printed, `stderr` the binary's, and the status is
 * the binary's (pipefail; head ends with 0).
 */
export function iccidIntoHead(args: readonly string[], lines: number, options: RunOptions = {}): Promise<RunResult> {
  const child = spawn("bash", ["-o", "pipefail", "-c", `"$@" | head -n ${lines}`, "bash", process.execPath, BIN, ...args], {
    env: cleanEnv(options.env),
    cwd: options.cwd ?? REPO_ROOT,
  });
  child.stdin.end(options.input ?? "");
  return collect(child);
}

/** Runs the binary on a terminal (`onTerminal`): both streams arrive merged in `stdout`, with CRLF line ends. */
export function iccidOnTty(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const [command, argv] = onTerminal([process.execPath, BIN, ...args], options.columns);
  const child = spawn(command, argv, {
    env: cleanEnv(options.env),
    cwd: options.cwd ?? REPO_ROOT,
  });
  child.stdin.end(options.input ?? "");
  return collect(child);
}

/** The environment that points the binary at a test server with a key. */
export function serverEnv(url: string, apiKey?: string, configDir = tempDir("iccid-config-")): Record<string, string> {
  return { ICCID_BASE_URL: url, ICCID_CONFIG_DIR: configDir, ...(apiKey ? { ICCID_API_KEY: apiKey } : {}) };
}

/** A key with its last (checksum) character changed: same shape, fails the checksum, never the key itself. */
export const mistyped = (key: string) => key.slice(0, -1) + (key.endsWith("x") ? "y" : "x");

/** Strips SGR colour codes. */
export const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
export const hasAnsi = (text: string) => /\u001b\[[0-9;]*m/.test(text);

/** One line on stderr (no stack trace), starting with "iccid:", and nothing on stdout. */
export function expectOneLineError(run: { stdout: string; stderr: string }, pattern: RegExp): void {
  expect(run.stdout).toBe("");
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/^iccid: /);
  expect(run.stderr).toMatch(pattern);
}
