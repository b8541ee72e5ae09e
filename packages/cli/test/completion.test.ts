import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { iccid, tempDir } from "./harness.js";

// `iccid completion`, through the built binary; the bash script is run by bash, as a shell would.

/** What bash offers for the words typed so far (the last one being completed). */
function complete(script: string, words: string[]): string[] {
  const file = join(tempDir("iccid-completion-"), "iccid.bash");
  writeFileSync(file, script);
  const line = ["iccid", ...words];
  const program = `source ${file}; COMP_WORDS=(${line.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${line.length - 1}; _iccid_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync("bash", ["--norc", "-c", program], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return r.stdout.split("\n").filter(Boolean);
}

describe("iccid completion", () => {
  it("bash: commands, subcommands, flags and the values of flags with a fixed set, from the command tree", async () => {
    const run = await iccid(["completion", "bash"]);
    expect(run.code).toBe(0);
    const script = run.stdout;
    expect(complete(script, ["k"])).toEqual(["keys"]);
    expect(complete(script, ["keys", ""])).toEqual(expect.arrayContaining(["list", "create", "roll", "revoke"]));
    expect(complete(script, ["keys", "create", "--s"])).toEqual(["--scope", "--save"]);
    expect(complete(script, ["usage", "--granularity", ""]).sort()).toEqual(["day", "hour", "month"]);
    expect(complete(script, ["lookup", "--output", "j"])).toEqual(["json"]);
    expect(complete(script, ["completion", ""])).toEqual(expect.arrayContaining(["bash", "zsh", "fish"]));
    expect(complete(script, ["who"])).toEqual(["whoami"]);
    // --version is the top command's alone; a flag's free value (a file) is left to the shell.
    expect(complete(script, ["lookup", "--v"])).toEqual([]);
    expect(complete(script, ["batch", "--out", ""])).toEqual([]);
  });

  it("zsh loads the bash completion through bashcompinit; fish gets its own complete lines", async () => {
    const zsh = (await iccid(["completion", "zsh"])).stdout;
    expect(zsh).toMatch(/^#compdef iccid\n/);
    expect(zsh).toContain("autoload -U +X bashcompinit && bashcompinit\n");
    expect(zsh).toContain("complete -o default -F _iccid_completion iccid\n");
    const fish = (await iccid(["completion", "fish"])).stdout;
    expect(fish).toContain("complete -c iccid -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from list create roll revoke' -a create");
    expect(fish).toMatch(/complete -c iccid -n '__fish_seen_subcommand_from usage' -l granularity -x -a 'hour day month' /);
  });

  it("refuses a shell it does not know, naming the choices (exit 2)", async () => {
    const run = await iccid(["completion", "powershell"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/value 'powershell' is invalid for argument 'shell'\. Allowed choices are bash, zsh, fish/);
  });
});
