// A handful of SGR codes instead of a colour library: the CLI needs five styles, and each caller
// decides per stream whether colour is on (see terminal.ts), so a global on/off switch would not do.

export interface Palette {
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOURED: Palette = {
  green: sgr(32, 39),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
};

const identity = (text: string) => text;
const PLAIN: Palette = { green: identity, red: identity, yellow: identity, dim: identity, bold: identity };

export function palette(enabled: boolean): Palette {
  return enabled ? COLOURED : PLAIN;
}
