import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigFieldError, parseConfig, type Config } from "./config-schema.js";
import { CliError } from "./errors.js";

export const CONFIG_FILE_NAME = "config.json";

/** `$ICCID_CONFIG_DIR`, else `$XDG_CONFIG_HOME/iccid`, else `~/.config/iccid`. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.ICCID_CONFIG_DIR) return env.ICCID_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, "iccid");
  return join(homedir(), ".config", "iccid");
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), CONFIG_FILE_NAME);
}

/** Reads the config file; a missing file is an empty config, a broken one is an error naming the field. */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<Config> {
  const path = configPath(env);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CliError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`the config file ${path} is not valid JSON (${(error as Error).message}); fix or delete it`);
  }
  try {
    return parseConfig(json);
  } catch (error) {
    if (error instanceof ConfigFieldError) throw new CliError(`the config file ${path}: ${error.message}`);
    throw error;
  }
}

/**
 * Writes the whole config atomically: a temp file in the same directory (so rename never crosses a
 * file system), created 0600 because it holds secrets, flushed, then renamed over the old file. A crash
 * leaves either the old or the new file, never half of one.
 */
export async function writeConfig(env: NodeJS.ProcessEnv, config: Config): Promise<string> {
  const dir = configDir(env);
  const path = join(dir, CONFIG_FILE_NAME);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${CONFIG_FILE_NAME}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(JSON.stringify(config, null, 2) + "\n", "utf8");
    // The umask cannot widen 0600, but chmod makes the mode explicit whatever the umask is.
    await handle.chmod(0o600);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  return path;
}

/** Read-modify-write of the config file. */
export async function updateConfig(env: NodeJS.ProcessEnv, change: (config: Config) => Config): Promise<string> {
  return writeConfig(env, change(await readConfig(env)));
}
