// Bundles the two test pages with esbuild: src/widgets8.js (a live kernel's widgets) and
// src/embed.js (saved widget state, no kernel), with everything they import from node_modules
// (ipywidgets 8's html-manager, controls, base and output, JupyterLab's kernel client and output
// area), into dist/NAME.js and dist/NAME.css, and copies src/NAME.html beside them.
// The Jupyter server serves dist/ as extra static files (/static/widgets8.html), so the page, its
// API requests and its kernel websocket share the server's loopback origin.
//
//   node build.mjs            (tests/test_widgets8_browser.py runs it when dist/ is older than src/)
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// tilde resolves webpack's `~package/...` in CSS @imports (JupyterLab's stylesheets use it) as a
// package path.
const tilde = {
  name: 'tilde',
  setup(build) {
    build.onResolve({ filter: /^~/ }, (args) =>
      build.resolve(args.path.slice(1), { kind: args.kind, resolveDir: args.resolveDir }));
  },
};

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: [path.join(here, 'src', 'widgets8.js'), path.join(here, 'src', 'embed.js')],
  outdir: dist,
  bundle: true,
  format: 'iife',
  target: 'chrome120',
  logLevel: 'warning',
  plugins: [tilde],
  // html-manager's libembed sets webpack's asset path, a variable that exists only under webpack.
  banner: { js: 'var __webpack_public_path__ = "";' },
  // JupyterLab's packages import their icons as SVG text and their fonts from CSS.
  loader: { '.svg': 'text', '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.eot': 'dataurl', '.png': 'dataurl', '.gif': 'dataurl' },
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
});
for (const page of ['widgets8.html', 'embed.html']) {
  copyFileSync(path.join(here, 'src', page), path.join(dist, page));
}
