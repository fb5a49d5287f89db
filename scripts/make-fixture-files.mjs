#!/usr/bin/env node
// Writes the sample policy files that fixtures/dataset.json references under `files`
// (display copies as PDF, HTML or Markdown, and Markdown text versions) into fixtures/files/.
// No dependencies. The output is deterministic: running it twice gives identical bytes.
//
//   node scripts/make-fixture-files.mjs
//
// The files are small stand-ins written for tests and demos, not copies of the real policies.

import { Buffer } from "node:buffer";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const DATASET = join(FIXTURES, "dataset.json");
const FILES_DIR = join(FIXTURES, "files");
const NOTE =
  "Sample fixture document for the coverage CLI. It is not an official copy of the policy.";

// ------------------------------------------------------------------ text helpers

/** Summary text without HTML tags or markdown emphasis, entities decoded. */
function plain(text) {
  if (text == null) return "";
  return text
    .replace(/<\/?(?:b|strong|i|em|code|span)\b[^>]*>/gi, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\*\*|__|[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function htmlEscape(text) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** Greedy word wrap. */
function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function effectiveLine(p) {
  const to = p.effective_to_date ? `until ${p.effective_to_date} (exclusive)` : "no end date";
  return `Effective ${p.effective_from_date}, ${to}`;
}

/** Minimal markdown (## headings, - bullets, **bold**, paragraphs) to HTML. */
function markdownToHtml(md) {
  const out = [];
  let inList = false;
  const inline = (s) => htmlEscape(s).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
  for (const raw of md.split("\n")) {
    const line = raw.trim();
    const bullet = /^[-*] (.*)$/.exec(line);
    if (!bullet && inList) {
      out.push("</ul>");
      inList = false;
    }
    if (!line) continue;
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1].length + 1);
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (bullet) {
      if (!inList) {
        out.push("<ul>");
        inList = true;
      }
      out.push(`<li>${inline(bullet[1])}</li>`);
    } else {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  if (inList) out.push("</ul>");
  return out.join("\n");
}

// ------------------------------------------------------------------ renderers

function renderMarkdown(p) {
  const parts = [
    `# ${p.title}`,
    "",
    `- Policy number: ${p.policy_number}`,
    `- Policy id: ${p.policy_id}`,
    `- ${effectiveLine(p)}`,
    `- Source: ${p.file_url}`,
    "",
  ];
  const summary = plain(p.summary);
  if (summary) parts.push("## Summary", "", summary, "");
  if (p.criteria_text) parts.push(p.criteria_text.trim(), "");
  parts.push(`_${NOTE}_`, "");
  return parts.join("\n");
}

function renderHtml(p) {
  const summary = plain(p.summary);
  const body = [
    `<h1>${htmlEscape(p.title)}</h1>`,
    `<p>Policy number: <strong>${htmlEscape(p.policy_number)}</strong></p>`,
    `<p>${htmlEscape(effectiveLine(p))}</p>`,
  ];
  if (summary) body.push("<h2>Summary</h2>", `<p>${htmlEscape(summary)}</p>`);
  if (p.criteria_text) body.push(markdownToHtml(p.criteria_text));
  body.push(`<p><em>${htmlEscape(NOTE)}</em></p>`);
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<title>${htmlEscape(`${p.policy_number}: ${p.title}`)}</title>`,
    "</head>",
    "<body>",
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** PDF string literal: ASCII only, with ( ) \ escaped. */
function pdfString(text) {
  const ascii = text
    .replace(/…/g, "...")
    .replace(/[–—]/g, "-")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/≥/g, ">=")
    .replace(/≤/g, "<=")
    .replace(/[^\x20-\x7e]/g, "?");
  return `(${ascii.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/**
 * A one-page PDF 1.4 with the standard Helvetica fonts. Offsets in the xref table are byte
 * offsets of each "n 0 obj" line; everything is ASCII except the binary marker comment, so
 * latin1 gives one byte per character.
 */
function renderPdf(p) {
  const lines = [];
  let y = 730;
  const add = (font, size, text, gap) => {
    lines.push(`BT /${font} ${size} Tf 1 0 0 1 72 ${y} Tm ${pdfString(text)} Tj ET`);
    y -= gap;
  };
  for (const t of wrap(p.title, 55)) add("F2", 15, t, 20);
  y -= 6;
  add("F1", 11, `Policy number: ${p.policy_number}`, 15);
  add("F1", 11, effectiveLine(p), 15);
  add("F1", 9, `Policy id: ${p.policy_id}`, 22);
  const summary = plain(p.summary);
  if (summary) for (const t of wrap(summary, 90).slice(0, 8)) add("F1", 10, t, 14);
  y -= 10;
  add("F1", 8, NOTE, 12);
  const content = lines.join("\n") + "\n";

  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " +
      "/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}endstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Title ${pdfString(`${p.policy_number}: ${p.title}`)} /Producer (coverage make-fixture-files) >>`,
  ];

  let pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) pdf += `${String(off).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\n`;
  pdf += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}

function renderDisplay(p) {
  switch (p.file_type) {
    case "pdf":
      return renderPdf(p);
    case "html":
      return renderHtml(p);
    case "md":
      return renderMarkdown(p);
    default:
      throw new Error(`${p.policy_id}: unknown file_type ${p.file_type}`);
  }
}

// ------------------------------------------------------------------ main

const dataset = JSON.parse(readFileSync(DATASET, "utf8"));
rmSync(FILES_DIR, { recursive: true, force: true });

const written = new Map();
function write(relPath, data, policyId) {
  const target = resolve(FIXTURES, relPath);
  if (!target.startsWith(FILES_DIR + sep)) {
    throw new Error(`${policyId}: file path ${relPath} is outside fixtures/files/`);
  }
  if (written.has(target)) {
    throw new Error(`${policyId}: ${relPath} is already used by ${written.get(target)}`);
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, data);
  written.set(target, policyId);
  return Buffer.byteLength(data);
}

let bytes = 0;
for (const p of dataset.policies) {
  if (!p.files) continue;
  if (p.files.display) bytes += write(p.files.display, renderDisplay(p), p.policy_id);
  if (p.files.text) bytes += write(p.files.text, renderMarkdown(p), p.policy_id);
}

console.log(
  `wrote ${written.size} files (${bytes} bytes) to ${relative(process.cwd(), FILES_DIR) || "."}`,
);
