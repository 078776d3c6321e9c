// Brotli and gzip files written beside every text file of the built PWA (dist/), so the server
// sends them as they are (@fastify/static `preCompressed`) and never compresses a page or an
// asset per request (docs/decisions.md: 310). Runs as the last step of `vite build`, after
// vite-plugin-pwa has written the service worker; the precache list it holds names the plain
// files, and the browser negotiates the encoding when the worker fetches them.
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** Text the browser may receive encoded; images, fonts and icons are already compressed. */
export const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/i;

/** Brotli at its best quality: done once per build, so the slowest setting is worth it. */
export function brotliBytes(content: string | Uint8Array): Buffer {
  const input = typeof content === 'string' ? Buffer.from(content) : content;
  return brotliCompressSync(input, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: input.length,
    },
  });
}

export function gzipBytes(content: string | Uint8Array): Buffer {
  return gzipSync(content, { level: 9 });
}

export interface PrecompressResult {
  /** Text files looked at. */
  files: number;
  /** Of which written with a .br and a .gz beside them (the rest were too small to gain). */
  compressed: number;
  rawBytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

/**
 * Writes `name.br` and `name.gz` beside every text file under `dir` (folders starting with a dot,
 * such as .vite, are skipped: the server never serves them). A variant is written only when it is
 * smaller than the file; the server then sends the plain file. Earlier variants are replaced.
 */
export function precompressDir(dir: string): PrecompressResult {
  const result: PrecompressResult = { files: 0, compressed: 0, rawBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of textFiles(dir)) {
    const content = fs.readFileSync(file);
    result.files++;
    result.rawBytes += content.length;
    const br = brotliBytes(content);
    const gz = gzipBytes(content);
    const write = (variant: string, bytes: Buffer) => {
      if (bytes.length < content.length) fs.writeFileSync(variant, bytes);
      else fs.rmSync(variant, { force: true });
      return Math.min(bytes.length, content.length);
    };
    result.brotliBytes += write(`${file}.br`, br);
    result.gzipBytes += write(`${file}.gz`, gz);
    if (br.length < content.length) result.compressed++;
  }
  return result;
}

function* textFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(full);
    else if (entry.isFile() && TEXT_FILE.test(entry.name)) yield full;
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The Vite side: after the client build has closed (and vite-plugin-pwa, whose closeBundle builds
 * sw.js, has run: this hook is ordered after it), compress the whole output folder once.
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        if (config.build.ssr || !config.build.write) return;
        const outDir = path.resolve(config.root, config.build.outDir);
        if (!fs.existsSync(outDir)) return;
        const r = precompressDir(outDir);
        config.logger.info(
          `[precompress] ${r.files} text files (${r.compressed} with .br/.gz beside them): ` +
            `${kb(r.rawBytes)} → ${kb(r.brotliBytes)} brotli, ${kb(r.gzipBytes)} gzip.`,
        );
      },
    },
  };
}
