// Render Mermaid charts with Mermaid itself in a headless Chromium: one page, one chart at a time.
//
// Usage: node graph_render_mermaid.mjs NODE_MODULES CHROMIUM OUT_DIR < charts.json
// charts.json: [{"name": "...", "text": "flowchart LR ...", "render": true}]. A chart with
// `render` is laid out and drawn (OUT_DIR/<index>.svg); the others go through Mermaid's own
// parser only (`mermaid.parse`, which throws on any syntax error), a hundred times faster.
// Prints [{"name", "error": null | "..."}] as JSON. Mermaid is loaded once into the page
// mermaid-cli renders in (`mmdc` loads a fresh page per chart, ~3 s each on a 2-core machine).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [nodeModules, chromium, outDir] = process.argv.slice(2);
const require = createRequire(join(nodeModules, "noop.js"));
const puppeteer = require("puppeteer");
const pageHtml = join(nodeModules, "@mermaid-js", "mermaid-cli", "dist", "index.html");
const mermaidJs = join(nodeModules, "mermaid", "dist", "mermaid.js");

const charts = JSON.parse(readFileSync(0, "utf8"));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: "shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const results = [];
try {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(pageHtml).href);
  await page.addScriptTag({ path: mermaidJs });
  await page.evaluate(() => globalThis.mermaid.initialize({ startOnLoad: false }));
  for (const [index, chart] of charts.entries()) {
    try {
      if (chart.render) {
        const svg = await page.evaluate(
          async (id, text) => (await globalThis.mermaid.render(id, text)).svg,
          `chart${index}`,
          chart.text,
        );
        writeFileSync(join(outDir, `${index}.svg`), svg);
      } else {
        await page.evaluate(async (text) => await globalThis.mermaid.parse(text), chart.text);
      }
      results.push({ name: chart.name, error: null });
    } catch (err) {
      results.push({ name: chart.name, error: String(err && err.message ? err.message : err) });
    }
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(results));
