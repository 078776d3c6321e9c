// The layers the code keeps (docs/decisions.md): import zones the linter checks, the hooks rules,
// and unused variables. Formatting is Prettier's alone, so no stylistic rule is on here.
import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = 'src/client/features';
const features = fs.existsSync(FEATURES)
  ? fs
      .readdirSync(FEATURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

/** The client's layers below the features: they never reach up into a feature or the app shell. */
const lowerClientLayers = ['offline', 'session', 'routing', 'ui', 'api', 'admin-kit'];

/**
 * The server's layers, top to bottom. A module imports from its own layer and the layers below it,
 * never from one above (docs/where-things-go.md says what each holds):
 *   main.ts, prepare-cluster.ts       the entry points
 *   app.ts                            builds the Fastify app from the layers below
 *   routes/, seed/                    call the services: for a request; for the demo data on first start
 *   ops/                              health, readiness, metrics, shutdown
 *   http/                             Fastify's plumbing: the error handler, idempotency keys, headers, logs
 *   contract/                         openapi.yaml read: the operations, request validation, the reference page
 *   services/                         what the portal does
 *   policies/                         who may do what on which record; beside it, and neither importing
 *   files/, pdf/, mail/, push/,         the other, the adapters to the world outside (storage, PDFs, mail,
 *     esign/, address/, backup/         web push, signing, postcode look-ups, backups)
 *   auth/                             sessions, passwords, tokens, rate limits
 *   db/                               the schema and the connection
 *   errors/, html/, config.ts, paths.ts   read by every layer
 * Two files are read from below on purpose: ops/instruments.ts (the histograms pdf/ and esign/ record
 * into) and mail/smtp-options.ts (config.ts parses the SMTP settings with it); neither imports the server.
 */
const serverLayers = [
  ['main.ts', 'prepare-cluster.ts'],
  ['app.ts'],
  ['routes', 'seed'],
  ['ops'],
  ['http'],
  ['contract'],
  ['services'],
  ['policies', 'files', 'pdf', 'mail', 'push', 'esign', 'address', 'backup'],
  ['auth'],
  ['db'],
  ['errors', 'html', 'background', 'config.ts', 'paths.ts'],
];
const readFromBelow = { ops: ['./instruments.ts'], mail: ['./smtp-options.ts'] };
const adapters = ['files', 'pdf', 'mail', 'push', 'esign', 'address', 'backup'];
const serverZones = [
  ...serverLayers.flatMap((layer, level) =>
    layer.flatMap((part) =>
      serverLayers
        .slice(0, level)
        .flat()
        .map((above) => ({
          target: `./src/server/${part}`,
          from: `./src/server/${above}`,
          except: readFromBelow[above] ?? [],
          message: `src/server/${part} sits below src/server/${above} and must not import it (the order heads eslint.config.js).`,
        })),
    ),
  ),
  ...adapters.flatMap((adapter) => [
    {
      target: './src/server/policies',
      from: `./src/server/${adapter}`,
      message: 'A policy decides from the actor and the record alone: it does not import an adapter.',
    },
    {
      target: `./src/server/${adapter}`,
      from: './src/server/policies',
      message: 'An adapter does not import the policies: the services ask them.',
    },
  ]),
];

const zones = [
  // Features share through the lower layers and src/shared, never through each other.
  ...features.map((feature) => ({
    target: `./${FEATURES}/${feature}`,
    from: `./${FEATURES}`,
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to a lower layer or src/shared.',
  })),
  // The app shell is the top layer: features reach routes and session through routing/ and session/.
  { target: `./${FEATURES}`, from: './src/client/app', message: 'A feature does not import the app shell (src/client/app).' },
  ...lowerClientLayers.flatMap((layer) => [
    {
      target: `./src/client/${layer}`,
      from: `./${FEATURES}`,
      message: `src/client/${layer} sits below the features and must not import them.`,
    },
    {
      target: `./src/client/${layer}`,
      from: './src/client/app',
      message: `src/client/${layer} sits below the app shell and must not import it.`,
    },
  ]),
  {
    target: './src/shared',
    from: ['./src/client', './src/server'],
    message: 'src/shared is read by both sides and imports neither.',
  },
  { target: './src/server', from: './src/client', message: 'The server never imports the client.' },
  { target: './src/client', from: './src/server', message: 'The client never imports the server.' },
  ...serverZones,
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'data/**',
      'backups/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      '.tmp/**',
      'src/shared/api/schema.d.ts',
      'src/server/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'radix-ui', message: 'Only src/client/ui imports radix-ui: use or add a primitive there.' }],
          patterns: [{ group: ['@radix-ui/*'], message: 'Only src/client/ui imports Radix.' }],
        },
      ],
    },
  },
  {
    // A cycle of runtime imports makes one module's exports undefined while the other loads. The
    // rule follows .ts files only when told they are modules; type-only imports do not count.
    files: ['src/server/**', 'src/client/**'],
    settings: { 'import-x/extensions': ['.ts', '.tsx'], 'import-x/ignore': ['node_modules'] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Playwright reads a test's fixtures from its first parameter's pattern: `{}` asks for none.
    files: ['tests/e2e/**'],
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ['src/client/ui/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
