/**
 * A merchant's brand on the checkout: which logo images are taken, and which accent colours can
 * carry the checkout's white button text legibly.
 */

/** The logo formats every browser shows and none runs script from (SVG can, so it is refused). */
export const LOGO_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoMediaType = (typeof LOGO_MEDIA_TYPES)[number];

/** A logo's largest size in bytes (256 KiB): enough for a crisp header logo, small on a phone's connection. */
export const MAX_LOGO_BYTES = 256 * 1024;

/** `#RRGGBB`, either case. */
export const ACCENT_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** WCAG 2's AA minimum for normal-size text: the accent carries white button labels. */
export const MIN_ACCENT_CONTRAST = 4.5;

/**
 * WCAG 2's relative luminance of an sRGB `#RRGGBB` colour (the definition's formula, written
 * out: ten lines of arithmetic are not worth a colour library). Each channel is linearised
 * (÷12.92 at or below 0.04045, else ((c+0.055)/1.055)^2.4) and weighted 0.2126 R, 0.7152 G, 0.0722 B.
 */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2's contrast ratio between white and `hex`: (1 + 0.05) / (L + 0.05), from 1 to 21. */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (relativeLuminance(hex) + 0.05);
}

/** Why `hex` cannot be the accent colour, or null when it can. */
export function accentColorProblem(hex: string): string | null {
  if (!ACCENT_COLOR_PATTERN.test(hex)) return "must be a colour written #RRGGBB, such as #1d4ed8";
  const ratio = contrastWithWhite(hex);
  if (ratio >= MIN_ACCENT_CONTRAST) return null;
  // Rounded down, so a colour just short of the minimum never reads as 4.50:1.
  const shown = Math.floor(ratio * 100) / 100;
  return `contrast with white text is ${shown.toFixed(2)}:1, below the 4.5:1 WCAG AA minimum: choose a darker colour`;
}
