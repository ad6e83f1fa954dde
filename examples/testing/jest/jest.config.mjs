// jest for the examples: TypeScript (and the few ES-module-only packages)
// compiled to CommonJS by a tiny esbuild transform (esbuild is already
// installed with tsx and vitest). CommonJS rather than jest's experimental
// native ES modules: its module linker fails on concurrent dynamic import()s
// of one module ("request for ... is not in cache"), which the server does.
// Run from the repository root:
//   npx jest -c examples/testing/jest/jest.config.mjs --maxWorkers=2
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Packages published as ES modules only (client-node and what it loads, the CEL engine): compiled like the sources. */
const ESM_ONLY = [
  '@kubernetes/client-node',
  'openid-client',
  'oauth4webapi',
  'jose',
  '@jsep-plugin/assignment',
  '@jsep-plugin/regex',
  '@marcbachmann/cel-js',
];

export default {
  rootDir: here,
  roots: [here],
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '\\.(ts|js|mjs)$': '<rootDir>/esbuild-transform.mjs' },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  // Sources import './x.js' for './x.ts' (TypeScript's NodeNext rule); jest looks for the file as named.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 30_000,
};
