import { crc32, deflateSync } from "node:zlib";

/*
 * Small valid images of the three logo formats, written byte by byte from their specifications,
 * so the tests hold real files without binary fixtures: a PNG of any size and colour, a 1×1
 * baseline JPEG and a 1×1 lossless WebP.
 */

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  return Buffer.concat([u32be(data.length), typed, u32be(crc32(typed))]);
}

/** An RGBA PNG (colour type 6, 8 bits) whose pixel (x, y) is `pixel(x, y)` as [r, g, b, a]. */
export function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, RGBA, deflate, adaptive filtering, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter type None
    for (let x = 0; x < width; x++) rows.push(...pixel(x, y));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.from(rows))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * A 1×1 grey baseline JPEG: one component, a quantisation table of ones, and one-code Huffman
 * tables (DC: category 0; AC: end of block), so the scan is the two bits "0" "0", padded with ones.
 */
export function jpeg(): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const oneCode = (tableClassAndId: number) => [tableClassAndId, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff, 0xd8, // SOI
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]), // DQT 0
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bits, 1×1, component 1 sampled 1×1 with table 0
    ...segment(0xc4, oneCode(0x00)), // DHT: DC table 0
    ...segment(0xc4, oneCode(0x10)), // DHT: AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS: component 1, tables 0/0, spectral 0..63
    0x3f, // DC "0" (difference 0), AC "0" (end of block), then ones to the byte's end
    0xff, 0xd9, // EOI
  ]);
}

/** Bits packed least significant first, as VP8L reads them. */
class BitWriter {
  private bits: number[] = [];
  put(value: number, count: number) {
    for (let i = 0; i < count; i++) this.bits.push((value >> i) & 1);
  }
  bytes(): Buffer {
    const out = Buffer.alloc(Math.ceil(this.bits.length / 8));
    this.bits.forEach((bit, i) => (out[i >> 3] |= bit << (i & 7)));
    return out;
  }
}

/**
 * A 1×1 lossless WebP (VP8L) of the colour [r, g, b]: no transforms, no colour cache, and five
 * "simple" prefix codes of one 8-bit symbol each, so the pixel itself takes no bits.
 */
export function webp([r, g, b]: [number, number, number]): Buffer {
  const w = new BitWriter();
  w.put(0x2f, 8); // VP8L signature
  w.put(0, 14); // width - 1
  w.put(0, 14); // height - 1
  w.put(0, 1); // alpha unused
  w.put(0, 3); // version 0
  w.put(0, 1); // no transform
  w.put(0, 1); // no colour cache
  w.put(0, 1); // no meta prefix codes
  for (const symbol of [g, r, b, 255, 0]) {
    w.put(1, 1); // simple code
    w.put(0, 1); // one symbol
    w.put(1, 1); // of 8 bits
    w.put(symbol, 8);
  }
  const payload = w.bytes();
  const chunk = Buffer.concat([Buffer.from("VP8L"), Buffer.alloc(4), payload, Buffer.alloc(payload.length % 2)]);
  chunk.writeUInt32LE(payload.length, 4);
  const riff = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBP"), chunk]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}
