// The build's reference check and the route preload live in scripts/ (run by vite.config.ts); their
// tests sit here because the unit project collects tests under src/ only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingReferences } from '../../../scripts/build-references';
import { routePreload, routePreloadFiles, routePreloadScript, SIGNED_IN_ROUTES } from '../../../scripts/prerender';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** An output folder holding `files` (path → text). */
function outDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-build-refs-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const shell = (head: string) =>
  `<!doctype html><html><head>${head}<link rel="manifest" href="/manifest.webmanifest"></head><body><div id="root"></div></body></html>`;

/** A whole build that names only files it holds. */
function soundBuild(): Record<string, string> {
  return {
    'index.html': shell(
      '<script async src="/assets/route-preload-1.js"></script><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/react-1.js"><link rel="icon" href="/favicon.svg">',
    ),
    'prerendered/sign-in.html': shell(
      '<link rel="modulepreload" crossorigin href="/assets/sign-in-1.js"><link rel="stylesheet" media="not all" href="/assets/field-1.css"><a href="/reset">x</a>',
    ),
    'assets/route-preload-1.js': routePreloadScript([['/loans', ['/assets/signed-in-1.js'], ['/assets/field-1.css']]]),
    'assets/index-1.js':
      'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/modal-host-1.js","assets/modal-1.css"])))=>i.map(i=>d[i]);',
    'assets/react-1.js': '',
    'assets/sign-in-1.js': '',
    'assets/signed-in-1.js': '',
    'assets/modal-host-1.js': '',
    'assets/modal-1.css': '',
    'assets/field-1.css': '',
    'favicon.svg': '<svg/>',
    'icons/icon-192.png': 'png',
    'manifest.webmanifest': JSON.stringify({ icons: [{ src: '/icons/icon-192.png' }] }),
    'sw.js': 'precacheAndRoute([{"revision":"a1","url":"index.html"},{"revision":null,"url":"assets/index-1.js"}]);',
  };
}

describe('the build names only files it holds', () => {
  it('passes a build whose pages, preloads, worker and manifest name files that are there', () => {
    expect(missingReferences(outDir(soundBuild()))).toEqual([]);
  });

  it('names a route preload of a chunk that is not there (the CSS-only chunk Vite removes)', () => {
    const files = soundBuild();
    files['assets/route-preload-1.js'] = routePreloadScript([
      ['/loans', ['/assets/signed-in-1.js', '/assets/field-gone.js'], ['/assets/field-1.css']],
    ]);
    expect(missingReferences(outDir(files))).toEqual([
      { from: 'assets/route-preload-1.js', kind: 'route preload', file: 'assets/field-gone.js' },
    ]);
  });

  it('names a module preload, a stylesheet, a lazy preload, a precache entry and an icon that are not there', () => {
    const files = soundBuild();
    delete files['assets/react-1.js'];
    delete files['assets/field-1.css'];
    delete files['assets/modal-1.css'];
    delete files['icons/icon-192.png'];
    files['sw.js'] = 'precacheAndRoute([{"revision":null,"url":"assets/gone-1.js"}]);';
    expect(missingReferences(outDir(files))).toEqual(
      expect.arrayContaining([
        { from: 'index.html', kind: 'modulepreload', file: 'assets/react-1.js' },
        { from: 'prerendered/sign-in.html', kind: 'stylesheet', file: 'assets/field-1.css' },
        { from: 'assets/route-preload-1.js', kind: 'route preload', file: 'assets/field-1.css' },
        { from: 'assets/index-1.js', kind: 'lazy preload', file: 'assets/modal-1.css' },
        { from: 'sw.js', kind: 'precache', file: 'assets/gone-1.js' },
        { from: 'manifest.webmanifest', kind: 'manifest icon', file: 'icons/icon-192.png' },
      ]),
    );
  });
});

describe('the route preload script', () => {
  const root = '/project';

  function chunk(fileName: string, modules: string[], imports: string[] = [], css: string[] = [], isEntry = false) {
    return {
      type: 'chunk',
      fileName,
      isEntry,
      moduleIds: modules.map((module) => `${root}/${module}`),
      imports,
      viteMetadata: { importedCss: new Set(css) },
    };
  }

  /** Runs the plugin's generateBundle on a bundle as Vite hands it over after its own hooks. */
  function run(bundle: Record<string, unknown>) {
    const plugin = routePreload();
    (plugin.configResolved as (config: { root: string }) => void)({ root });
    const hook = plugin.generateBundle as { order: string; handler: (this: unknown, o: unknown, b: unknown) => void };
    const emitted: { name: string; source: string }[] = [];
    hook.handler.call(
      {
        emitFile: (file: { name: string; source: string }) => emitted.push(file) - 1,
        getFileName: (reference: number) => `assets/${emitted[reference]!.name.replace('.js', '-abc.js')}`,
        error: (message: string) => {
          throw new Error(message);
        },
      },
      {},
      bundle,
    );
    return { order: hook.order, emitted };
  }

  it('is written from the bundle after Vite’s own hooks, and lists only the chunks that bundle holds', () => {
    const modules = [...new Set(SIGNED_IN_ROUTES.flatMap((route) => route.modules))];
    const entry = chunk('assets/index.js', ['src/client/main.tsx'], ['assets/react.js'], [], true);
    // What Vite's CSS plugin leaves: the CSS-only chunk is gone and its stylesheet is its importer's.
    const signedIn = chunk('assets/signed-in.js', modules, ['assets/react.js', 'assets/button.js'], ['assets/field.css']);
    const bundle = {
      'index.html': {
        type: 'asset',
        fileName: 'index.html',
        source: '<head><script type="module" src="/assets/index.js"></script></head>',
      },
      [entry.fileName]: entry,
      'assets/react.js': chunk('assets/react.js', ['node_modules/react/index.js']),
      [signedIn.fileName]: signedIn,
      'assets/button.js': chunk('assets/button.js', ['src/client/ui/button.tsx']),
    };
    const { order, emitted } = run(bundle);
    // Vite's CSS plugin removes CSS-only chunks in its generateBundle: this runs after it.
    expect(order).toBe('post');
    expect(routePreloadFiles(emitted[0]!.source)).toEqual(['/assets/signed-in.js', '/assets/button.js', '/assets/field.css']);
    expect((bundle['index.html'] as { source: string }).source).toContain(
      '<script async src="/assets/route-preload-abc.js"></script>\n    <script type="module"',
    );
  });

  it('fails the build when a route’s module is in no chunk', () => {
    expect(() =>
      run({
        'index.html': { type: 'asset', fileName: 'index.html', source: '<script type="module" src="/a.js"></script>' },
        'assets/index.js': chunk('assets/index.js', ['src/client/main.tsx'], [], [], true),
      }),
    ).toThrow('is not a chunk of the build');
  });
});
