import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';

/**
 * DejaVu Sans from the `dejavu-fonts-ttf` package: the PDF standard fonts (WinAnsi) cannot
 * encode Polish letters such as ą, ł or ż, so every document embeds these instead.
 */
export type FontFiles = { regular: Uint8Array; bold: Uint8Array };

const require = createRequire(import.meta.url);
let fontFiles: Promise<FontFiles> | undefined;

export function loadFontFiles(): Promise<FontFiles> {
  fontFiles ??= Promise.all([
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return fontFiles;
}

type Fontkit = typeof fontkit;
const parsedFonts = new WeakMap<Uint8Array, ReturnType<Fontkit['create']>>();

/**
 * fontkit for pdf-lib that parses each font file once per process instead of once per
 * document (half the time of making a PDF). pdf-lib only reads the parsed font; every document
 * still gets its own subset.
 */
export const sharedFontkit: Fontkit = {
  ...fontkit,
  create(buffer, postscriptName) {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    let font = parsedFonts.get(buffer);
    if (!font) {
      font = fontkit.create(buffer);
      parsedFonts.set(buffer, font);
    }
    return font;
  },
};
