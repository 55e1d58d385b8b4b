import { createHash } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import { LOGO_MEDIA_TYPES, MAX_LOGO_BYTES, type LogoMediaType } from "@/domain/brand";
import { invalidField } from "@/lib/http/errors";

/** What a logo upload was found to be: its type by content, and its SHA-256 (its key and URL). */
export type CheckedLogo = { content: Buffer; contentType: LogoMediaType; sha256: string };

const KINDS = "a PNG, JPEG or WebP image";

/** An SVG (or other XML) document: refused by name in the message, since it is the type a merchant most often tries. */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString("utf8").replace(/^\uFEFF/, "").trimStart().toLowerCase();
  return head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg")) || /^<!doctype svg/.test(head);
}

/**
 * Checks an uploaded logo by its content: at most MAX_LOGO_BYTES, and a PNG, JPEG or WebP as
 * file-type reads the bytes' signature (a file's name and the type a browser or client claims
 * are never asked). Anything else, SVG included, is a 400 naming `field`.
 */
export async function checkLogo(bytes: Uint8Array, field = "logo"): Promise<CheckedLogo> {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (content.byteLength === 0) throw invalidField(field, `must be ${KINDS}; the file is empty`);
  if (content.byteLength > MAX_LOGO_BYTES) {
    throw invalidField(field, `must be at most 256 KB (${MAX_LOGO_BYTES} bytes); this file is ${content.byteLength} bytes`);
  }
  if (looksLikeSvg(content)) throw invalidField(field, `SVG is not accepted (it can carry script): upload ${KINDS}`);
  const found = await fileTypeFromBuffer(content);
  const type = LOGO_MEDIA_TYPES.find((t) => t === found?.mime);
  if (!type) {
    const what = found ? `its content is ${found.mime}` : "its content is not an image of those kinds";
    throw invalidField(field, `must be ${KINDS}; ${what} (the file's name and declared type do not count)`);
  }
  return { content, contentType: type, sha256: createHash("sha256").update(content).digest("hex") };
}
