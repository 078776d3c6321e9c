// Renders the portal's logo (white scales of justice on a #0b3d91 square) to the PNG icons the
// web manifest and iOS need, plus the SVG favicon. The PNGs are committed; run this again only
// when the logo changes:  node scripts/make-icons.mjs
//
// Chromium does the rasterising so no image library is needed: CHROMIUM_PATH, or /usr/bin/chromium.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BLUE = '#0b3d91';

// The glyph is drawn on a 512 × 512 grid centred on (256, 248). It spans about 340 × 312 px.
const glyph = `
  <g fill="#ffffff">
    <circle cx="256" cy="104" r="22"/>
    <rect x="243" y="118" width="26" height="262" rx="6"/>
    <rect x="110" y="150" width="292" height="20" rx="10"/>
    <path d="M178 396 Q256 352 334 396 Z"/>
    <rect x="168" y="390" width="176" height="22" rx="11"/>
    <path d="M84 286 H188 A52 52 0 0 1 84 286 Z"/>
    <path d="M324 286 H428 A52 52 0 0 1 324 286 Z"/>
  </g>
  <g stroke="#ffffff" stroke-width="7" stroke-linecap="round" fill="none">
    <path d="M136 168 L92 286 M136 168 L180 286"/>
    <path d="M376 168 L332 286 M376 168 L420 286"/>
  </g>`;

/** scale: glyph size relative to the square; rounded: transparent corners (for 'any' icons). */
function logo({ size, scale, rounded }) {
  const transform = `translate(256 256) scale(${scale}) translate(-256 -248)`;
  const background = rounded
    ? `<rect width="512" height="512" rx="112" fill="${BLUE}"/>`
    : `<rect width="512" height="512" fill="${BLUE}"/>`;
  const dimensions = size ? ` width="${size}" height="${size}"` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"${dimensions}>${background}<g transform="${transform}">${glyph}</g></svg>`;
}

// Maskable icons are cropped to a circle of radius 40 % by some launchers: at 0.78 the glyph's
// farthest point stays about 185 px from the centre, inside the 205 px safe zone.
const targets = [
  { file: 'public/icons/icon-192.png', size: 192, scale: 0.86, rounded: true },
  { file: 'public/icons/icon-512.png', size: 512, scale: 0.86, rounded: true },
  { file: 'public/icons/maskable-512.png', size: 512, scale: 0.78, rounded: false },
  // iOS fills transparency with black and rounds the corners itself: full bleed.
  { file: 'public/icons/apple-touch-icon.png', size: 180, scale: 0.82, rounded: false },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const target of targets) {
    await page.setViewportSize({ width: target.size, height: target.size });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${logo(target)}</body></html>`);
    const png = await page.screenshot({
      clip: { x: 0, y: 0, width: target.size, height: target.size },
      omitBackground: true,
      type: 'png',
    });
    const path = resolve(root, target.file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, png);
    console.log(`${target.file}  ${target.size}×${target.size}  ${png.length} bytes`);
  }
} finally {
  await browser.close();
}

await writeFile(resolve(root, 'public/favicon.svg'), `${logo({ scale: 0.86, rounded: true })}\n`);
console.log('public/favicon.svg');
