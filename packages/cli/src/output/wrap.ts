import { Help } from "commander";

// Text for people at a terminal, wrapped at its width on word boundaries: commander's own wrapping
// (Help#boxWrap, which measures without colour codes), with the lines after the first indented.

const help = new Help();

/** Wraps `text` to `width` columns at spaces; every line after the first starts with `indent` spaces. */
export function wrapIndented(text: string, width: number, indent: number): string {
  // The first line is the text's own start (boxWrap keeps it as written); the rest wraps narrower.
  const first = help.boxWrap(text, width).split("\n")[0]!;
  const rest = text.slice(first.length).trimStart();
  if (rest === "") return first;
  const lines = help.boxWrap(rest, Math.max(1, width - indent)).split("\n");
  return [first.trimEnd(), ...lines.map((line) => " ".repeat(indent) + line)].join("\n");
}

/** Wraps `text` that follows `indent` columns of something else (a label) so that it fits `width`, each next line under its first. */
export function wrapAfter(text: string, width: number, indent: number): string {
  return help.boxWrap(text, Math.max(1, width - indent)).split("\n").join("\n" + " ".repeat(indent));
}

/** A line that starts a paragraph of its own: a label such as "Exit status:" or "Examples:". */
const LABEL = /^[A-Z][A-Za-z ]*:(\s|$)/;

/** An example with a comment beside it: "  $ iccid … | cut -f4        # piped: no header". */
const COMMENTED = /^(\s+)(\S.*?)\s{2,}(# .*)$/;

/**
 * An indented line (an example) at `width`: wrapped with a deeper indent; a comment that does not fit
 * beside its command goes on its own line above it.
 */
function exampleLines(line: string, width: number): string[] {
  const commented = line.length > width ? COMMENTED.exec(line) : null;
  if (!commented) return [wrapIndented(line, width, line.length - line.trimStart().length + 4)];
  const [, indent = "", command = "", comment = ""] = commented;
  return [wrapIndented(indent + comment, width, indent.length + 2), wrapIndented(indent + command, width, indent.length + 4)];
}

/**
 * Reflows a help footer for a terminal `width` columns wide. Prose (lines that start at the margin) is
 * joined into paragraphs, broken at blank lines and at labels ("Exit status: …"), and wrapped at word
 * boundaries; indented lines (examples) keep their line and wrap with a deeper indent.
 */
export function reflowHelp(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) out.push(wrapIndented(paragraph.join(" "), width, 0));
    paragraph = [];
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "" || /^\s/.test(line)) {
      endParagraph();
      out.push(...(line.trim() === "" ? [""] : exampleLines(line.trimEnd(), width)));
      continue;
    }
    if (LABEL.test(line)) endParagraph();
    paragraph.push(line.trim());
    if (line.trimEnd().endsWith(":") && LABEL.test(line)) endParagraph(); // "Examples:" stands alone
  }
  endParagraph();
  return out.join("\n");
}
