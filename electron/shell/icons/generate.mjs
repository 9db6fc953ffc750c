#!/usr/bin/env node
// Draws the tray and app icons from a few shapes and writes them as PNG with nothing but Node's
// zlib, so anyone can change a colour and regenerate: `node electron/shell/icons/generate.mjs`.
// The picture is a road of three lanes seen from above: a rounded frame. Tray states differ by
// shape as well as colour, because macOS template images keep only the alpha channel:
//   idle    — the road, empty: dashed lane markings     working — the road with work in each lane
//   nudge   — working + a solid dot                     paused  — the empty road + a pause sign
//   error   — the empty road + a ring
// Idle used to be three thin bars, which read as a "menu" (hamburger) button; the frame and the
// dashes are there so that no state is three plain stacked lines.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

// ---- PNG writing -----------------------------------------------------------------------------
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

// ---- Shapes in unit coordinates (0..1), painted in order ------------------------------------
const hex = (h, a = 1) => [parseInt(h.slice(1, 3), 16) / 255, parseInt(h.slice(3, 5), 16) / 255, parseInt(h.slice(5, 7), 16) / 255, a];
const bar = (x0, y, x1, h, color) => ({ kind: 'rect', x0, y0: y - h / 2, x1, y1: y + h / 2, r: h / 2, color });
const dot = (cx, cy, r, color) => ({ kind: 'circle', cx, cy, r, color });
const ring = (cx, cy, r, width, color) => ({ kind: 'ring', cx, cy, r, width, color });
// Clears whatever is under it: a gap around badges so they read at 16 px.
const clear = (cx, cy, r) => ({ kind: 'circle', cx, cy, r, color: null });

function inside(shape, x, y) {
  if (shape.kind === 'circle') return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2;
  if (shape.kind === 'ring') {
    const d = Math.hypot(x - shape.cx, y - shape.cy);
    return d <= shape.r && d >= shape.r - shape.width;
  }
  if (shape.kind === 'gradientRect' || shape.kind === 'rect') {
    const { x0, y0, x1, y1, r } = shape;
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  }
  return false;
}

function colorAt(shape, y) {
  if (shape.kind !== 'gradientRect') return shape.color;
  const t = (y - shape.y0) / (shape.y1 - shape.y0);
  return shape.top.map((v, i) => v + (shape.bottom[i] - v) * t);
}

function render(size, shapes, samples = 4) {
  const out = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          // Premultiplied "over" compositing, per sample.
          let cr = 0, cg = 0, cb = 0, ca = 0;
          for (const shape of shapes) {
            if (!inside(shape, x, y)) continue;
            const color = colorAt(shape, y);
            if (!color) {
              cr = cg = cb = ca = 0;
              continue;
            }
            const [sr, sg, sb, sa] = color;
            cr = sr * sa + cr * (1 - sa);
            cg = sg * sa + cg * (1 - sa);
            cb = sb * sa + cb * (1 - sa);
            ca = sa + ca * (1 - sa);
          }
          r += cr; g += cg; b += cb; a += ca;
        }
      }
      const n = samples * samples;
      const alpha = a / n;
      const i = (py * size + px) * 4;
      out[i] = alpha ? Math.round((r / n / alpha) * 255) : 0;
      out[i + 1] = alpha ? Math.round((g / n / alpha) * 255) : 0;
      out[i + 2] = alpha ? Math.round((b / n / alpha) * 255) : 0;
      out[i + 3] = Math.round(alpha * 255);
    }
  }
  return out;
}

// ---- The designs ------------------------------------------------------------------------------
// Sizes in 16ths, each edge on a whole pixel at 16 px and at 32 px, so the 1-pixel frame and
// markings stay sharp instead of blurring into two grey pixels. The road inside the frame is 12
// high: three lanes of 3, 4 and 3 with two markings of 1 (idle), or three bars of 2 with gaps of 2
// and a pixel clear of the frame (working).
const px = (n) => n / 16;
const FRAME = { x0: 0, y0: px(1), x1: 1, y1: px(15), r: px(3), width: px(1) };
const MARKINGS = [px(5), px(10)];
const BARS = [px(3), px(7), px(11)];
const BADGE = { cx: 0.79, cy: 0.25, r: 0.19 };

const rect = (x0, y0, x1, y1, r, color) => ({ kind: 'rect', x0, y0, x1, y1, r, color });

/** The rounded frame: a filled rounded rectangle with its inside cleared. */
function frame(color) {
  const { x0, y0, x1, y1, r, width } = FRAME;
  return [rect(x0, y0, x1, y1, r, color), rect(x0 + width, y0 + width, x1 - width, y1 - width, r - width, null)];
}

/** Dashed lane markings, three dashes of 2 a row: an empty road. */
function markings(color) {
  return MARKINGS.flatMap((y) => [3, 7, 11].map((x) => rect(px(x), y, px(x + 2), y + px(1), 0, color)));
}

/** Work in every lane, of different lengths, the way a busy road looks. */
function work(color) {
  const ends = [px(14), px(9), px(12)];
  return BARS.map((y, i) => rect(px(2), y, ends[i], y + px(2), px(1), color));
}

/** `palette` null: a macOS template (black, shape only). */
function trayShapes(state, palette) {
  const ink = (name) => (palette ? hex(palette[name]) : hex('#000000'));
  const badgeGap = clear(BADGE.cx, BADGE.cy, BADGE.r + 0.08);
  const empty = (name) => [...frame(ink(name)), ...markings(ink(name))];
  const busy = [...frame(ink('working')), ...work(ink('working'))];
  switch (state) {
    case 'idle':
      return empty('idle');
    case 'working':
      return busy;
    case 'nudge':
      return [...busy, badgeGap, dot(BADGE.cx, BADGE.cy, BADGE.r, ink('nudge'))];
    case 'paused': {
      // A pause sign: two upright bars in a solid dot, cut out so they read at 16 px.
      const upright = (cx) => rect(cx - 0.035, BADGE.cy - 0.1, cx + 0.035, BADGE.cy + 0.1, 0.01, null);
      return [...empty('idle'), badgeGap, dot(BADGE.cx, BADGE.cy, BADGE.r, ink('paused')), upright(BADGE.cx - 0.06), upright(BADGE.cx + 0.06)];
    }
    case 'error':
      return [...empty('idle'), badgeGap, ring(BADGE.cx, BADGE.cy, BADGE.r, 0.1, ink('error'))];
    default:
      throw new Error(`unknown tray state ${state}`);
  }
}

// Readable on light and dark taskbars alike.
const PALETTE = { idle: '#8b93a1', working: '#16a37f', nudge: '#f59e0b', paused: '#4f7cf0', error: '#e5484d' };

function appShapes() {
  return [
    { kind: 'gradientRect', x0: 0.04, y0: 0.04, x1: 0.96, y1: 0.96, r: 0.22, top: hex('#1c7c68'), bottom: hex('#0d3b34') },
    bar(0.2, 0.32, 0.8, 0.1, hex('#ffffff')),
    bar(0.2, 0.5, 0.62, 0.1, hex('#ffffff', 0.92)),
    bar(0.2, 0.68, 0.72, 0.1, hex('#ffffff', 0.85)),
    dot(0.62, 0.5, 0.075, hex('#f59e0b')),
  ];
}

const outputs = [];
for (const state of ['idle', 'working', 'nudge', 'paused', 'error']) {
  for (const [suffix, size] of [['', 16], ['@2x', 32]]) {
    outputs.push([`tray-${state}${suffix}.png`, size, trayShapes(state, PALETTE)]);
    outputs.push([`tray-${state}Template${suffix}.png`, size, trayShapes(state, null)]);
  }
}
for (const size of [16, 32, 64, 128, 256, 512, 1024]) outputs.push([`icon-${size}.png`, size, appShapes()]);

const rendered = new Map();
for (const [name, size, shapes] of outputs) {
  const pixels = render(size, shapes, size >= 256 ? 2 : 4);
  rendered.set(name, { size, pixels });
  fs.writeFileSync(path.join(here, name), png(size, pixels));
}

// ---- A preview sheet for the docs: every tray state on a light and a dark bar, enlarged -------
function previewSheet(rows, scale, gap) {
  const cell = 32 * scale;
  const width = gap + rows[0].names.length * (cell + gap);
  const height = gap + rows.length * (cell + gap);
  const out = Buffer.alloc(width * height * 4);
  rows.forEach((row, r) => {
    for (let y = r * (cell + gap); y < (r + 1) * (cell + gap) + gap; y++) {
      for (let x = 0; x < width; x++) out.set([...row.background, 255], (y * width + x) * 4);
    }
    row.names.forEach((name, c) => {
      const { size, pixels } = rendered.get(name);
      // macOS draws template images white on a dark menu bar; show them that way.
      const white = row.dark && name.includes('Template');
      for (let y = 0; y < cell; y++) {
        for (let x = 0; x < cell; x++) {
          const src = (Math.floor((y * size) / cell) * size + Math.floor((x * size) / cell)) * 4;
          const dst = ((gap + r * (cell + gap) + y) * width + gap + c * (cell + gap) + x) * 4;
          const a = pixels[src + 3] / 255;
          for (let k = 0; k < 3; k++) out[dst + k] = Math.round((white ? 255 : pixels[src + k]) * a + out[dst + k] * (1 - a));
        }
      }
    });
  });
  return { width, height, out };
}
const states = ['idle', 'working', 'nudge', 'paused', 'error'];
const sheet = previewSheet(
  [
    { background: [246, 246, 246], names: [...states.map((s) => `tray-${s}@2x.png`), ...states.map((s) => `tray-${s}Template@2x.png`)] },
    { background: [40, 40, 40], dark: true, names: [...states.map((s) => `tray-${s}@2x.png`), ...states.map((s) => `tray-${s}Template@2x.png`)] },
  ],
  3,
  12,
);
// png() writes square images; the sheet is wide, so write it with its own header.
const header = Buffer.alloc(13);
header.writeUInt32BE(sheet.width, 0);
header.writeUInt32BE(sheet.height, 4);
header.set([8, 6, 0, 0, 0], 8);
const rows = Buffer.alloc(sheet.height * (sheet.width * 4 + 1));
for (let y = 0; y < sheet.height; y++) sheet.out.copy(rows, y * (sheet.width * 4 + 1) + 1, y * sheet.width * 4, (y + 1) * sheet.width * 4);
fs.writeFileSync(
  path.join(here, 'preview.png'),
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]),
);
process.stdout.write(`wrote ${outputs.length} icons and preview.png to ${path.relative(process.cwd(), here) || '.'}\n`);
