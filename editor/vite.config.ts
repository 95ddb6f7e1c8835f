import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";

// Built by scripts/build_js.py into the Python package; the server serves it at / and /assets/*.
export default defineConfig({
  plugins: [vue()],
  base: "/",
  build: {
    outDir: "../src/weft/server/editor_dist", // relative to this folder (Vite's root)
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    // no inline module-preload polyfill: the page runs no inline script (the server's CSP forbids it)
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
