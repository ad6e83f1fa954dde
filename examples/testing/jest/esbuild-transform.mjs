// A jest transform: TypeScript and ES modules to CommonJS with esbuild (types
// stripped, no type checking: tsc --noEmit does that). What ts-jest or
// babel-jest would do here, with the one dependency the repository has already.
import { transformSync } from 'esbuild';

export default {
  process(source, filename) {
    const out = transformSync(source, {
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      sourcefile: filename,
      sourcemap: 'inline',
      // import() becomes require(): jest runs CommonJS without --experimental-vm-modules.
      supported: { 'dynamic-import': false },
      // CommonJS has no import.meta: the module's URL from its file name.
      define: { 'import.meta.url': '__jestImportMetaUrl' },
      banner: "const __jestImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    });
    return { code: out.code };
  },
};
