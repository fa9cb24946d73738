// Just enough Markdown for the games' rules summaries (their READMEs): headings, paragraphs,
// lists, tables, rules, and bold, italics, code and links inside a line. Built as DOM nodes
// through h(), never as an HTML string, so nothing in a file can become markup.

import {h} from "./dom.js";

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;

/** One line's text with its inline marks as elements. */
function inline(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("**")) out.push(h("strong", {}, token.slice(2, -2)));
    else if (token.startsWith("`")) out.push(h("code", {}, token.slice(1, -1)));
    else if (token.startsWith("[")) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
      out.push(/^https:\/\//.test(href) ? h("a", {href, rel: "noopener"}, label) : label);  // a repository path is no page here
    } else out.push(h("em", {}, token.slice(1, -1)));
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function tableOf(rows) {
  const cells = (row) => row.replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
  const [head, , ...body] = rows;
  return h("div", {class: "scroll"}, h("table", {},
    h("thead", {}, h("tr", {}, cells(head).map((c) => h("th", {scope: "col"}, inline(c))))),
    h("tbody", {}, body.map((row) => h("tr", {}, cells(row).map((c) => h("td", {}, inline(c))))))));
}

/** The document as elements; headings start at ``h2`` (the page has its own ``h1``). */
export function markdown(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      out.push(h(`h${Math.min(6, heading[1].length + 1)}`, {}, inline(heading[2])));
      i++;
    } else if (/^-{3,}\s*$/.test(line)) {
      out.push(h("hr", {}));
      i++;
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      out.push(rows.length > 2 ? tableOf(rows) : h("p", {}, inline(rows.join(" "))));
    } else if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && /^\s*([-*]|\d+\.)\s+/.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.)\s+/, "");
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s+/.test(lines[i])) item += ` ${lines[i++].trim()}`;
        items.push(h("li", {}, inline(item)));
      }
      out.push(h(ordered ? "ol" : "ul", {}, items));
    } else if (line.startsWith("```")) {
      const code = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i++;
      out.push(h("pre", {}, code.join("\n")));
    } else {
      const para = [lines[i++].trim()];  // always at least this line: the loop moves on
      while (i < lines.length && lines[i].trim() && !/^(#|\||```|\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++].trim());
      out.push(h("p", {}, inline(para.join(" "))));
    }
  }
  return out;
}
