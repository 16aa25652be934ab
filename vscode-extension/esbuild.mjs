import { build } from 'esbuild';
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], logLevel: 'warning' };
await build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', minify: process.argv.includes('--minify') });
// The pure view models, for the unit tests.
await build({ ...common, entryPoints: ['src/models.ts'], outfile: 'out/models.js' });
