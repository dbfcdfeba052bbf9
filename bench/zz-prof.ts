import { htmlToMarkdown } from "/work/wt-webfetch/apps/host/src/web/markdown.ts";
import { stripNonContent } from "/work/wt-webfetch/apps/host/src/web/providers/http.ts";
const section = (i: number) => `<section id="s${i}"><h2>Section ${i}</h2>
<p>Paragraph ${i} with <a href="/doc/${i}">a relative link</a>, <em>emphasis</em> and <code>inline code</code>. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>
<table><tr><th>key</th><th>value</th></tr><tr><td>row ${i}</td><td>${i * 7}</td></tr></table>
<script>window.track && window.track(${i});</script>
<ul><li>first item ${i}</li><li>second item ${i}</li></ul></section>\n`;
let html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Bench page</title></head><body>";
for (let i = 0; html.length < 130000; i++) html += section(i);
const s = stripNonContent(html).slice(0, 100000);
for (let k = 0; k < 5; k++) { const t = performance.now(); const md = htmlToMarkdown(s, "http://x/"); console.log((performance.now()-t).toFixed(1), md.length); }
