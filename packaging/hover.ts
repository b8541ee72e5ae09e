import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/**
 * What an editor shows on a hover over a name in a file of a project at `dir`, as the TypeScript language
 * service answers it (strict, NodeNext): the hovered text and its doc comment.
 */
export function hoverer(dir: string, file: string): (name: string) => { display: string; docs: string } {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  const options: ts.CompilerOptions = { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] };
  const service = ts.createLanguageService({
    getCompilationSettings: () => options,
    getScriptFileNames: () => [path],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => (ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name)!) : undefined),
    getCurrentDirectory: () => dir,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  return (name) => {
    // The name's first use after its declaration: `result` in `void result.country`, or the property itself.
    const at = text.lastIndexOf(name);
    const info = service.getQuickInfoAtPosition(path, at);
    if (!info) throw new Error(`no hover for ${name} in ${file}`);
    return { display: ts.displayPartsToString(info.displayParts), docs: ts.displayPartsToString(info.documentation) };
  };
}
