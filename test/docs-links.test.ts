import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The documentation's relative links resolve: README.md, ARCHITECTURE.md and every docs/*.md.
 * A link or image whose target is not a URL (http:, https:, mailto:, any scheme) must name a file
 * or folder that exists, relative to the document (or to the repository for "/…"), and a
 * "#fragment" into a Markdown file must be the GitHub slug of one of its headings. Links inside
 * fenced code blocks and inline code are not links. README.md stays a front page: at most 300
 * lines, the rest lives in docs/.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const README_MAX_LINES = 300;

/** README.md, ARCHITECTURE.md and every .md under docs/, as repository-relative paths. */
function documents(): string[] {
  const docs: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, d.name);
      if (d.isDirectory()) walk(rel);
      else if (d.name.endsWith(".md")) docs.push(rel);
    }
  };
  walk("docs");
  return ["README.md", "ARCHITECTURE.md", ...docs.sort()];
}

/** The text with every fenced code block (``` or ~~~, any indent) blanked; line numbers kept. */
function withoutFences(text: string): string {
  const lines = text.split("\n");
  let fence: { char: string; length: number } | undefined;
  return lines
    .map((line) => {
      if (fence) {
        const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
        if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = undefined;
        return "";
      }
      const open = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
      if (open && !(open[1][0] === "`" && open[2].includes("`"))) {
        fence = { char: open[1][0], length: open[1].length };
        return "";
      }
      return line;
    })
    .join("\n");
}

/** The text with every inline code span blanked (a run of n backticks up to the next run of exactly n, within a paragraph). */
function withoutInlineCode(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = /`+/g;
    open.lastIndex = i;
    const m = open.exec(text);
    if (!m) break;
    out += text.slice(i, m.index);
    const close = new RegExp(`(?<!\`)${"`".repeat(m[0].length)}(?!\`)`, "g");
    close.lastIndex = m.index + m[0].length;
    const c = close.exec(text);
    if (!c || /\n[ \t]*\n/.test(text.slice(m.index, c.index))) {
      out += m[0]; // no closing run: literal backticks
      i = m.index + m[0].length;
      continue;
    }
    out += text.slice(m.index, c.index + c[0].length).replace(/[^\n]/g, " ");
    i = c.index + c[0].length;
  }
  return out + text.slice(i);
}

/** A GitHub heading slugger: lowercase, punctuation dropped (not - or _), each space a "-", repeats get -1, -2, … */
function slugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image reads as its text
      .replace(/<[^>]+>/g, "") // inline HTML
      .replace(/[`*]/g, "")
      .trim();
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
    let slug = base;
    while (seen.has(slug)) {
      const n = seen.get(base)! + 1;
      seen.set(base, n);
      slug = `${base}-${n}`;
    }
    seen.set(slug, 0);
    return slug;
  };
}

/** Every anchor a Markdown document offers: its headings' slugs (ATX and setext) and explicit HTML ids/names. */
function anchorsOf(markdown: string): Set<string> {
  const slug = slugger();
  const anchors = new Set<string>();
  const lines = withoutFences(markdown).split("\n");
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    const prev = lines[i - 1] ?? "";
    if (atx) anchors.add(slug(atx[1] ?? ""));
    else if (/^ {0,3}(=+|-+)[ \t]*$/.test(line) && prev.trim() && !/^\s*([#>|]|[-*+] |\d+[.)] )/.test(prev)) anchors.add(slug(prev));
  });
  const text = withoutInlineCode(withoutFences(markdown));
  for (const m of text.matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]);
  return anchors;
}

interface Link {
  line: number;
  text: string;
  target: string;
}

/** Every link and image target of a Markdown document, outside code: inline, reference definitions, HTML href/src. */
function linksOf(markdown: string): Link[] {
  const text = withoutInlineCode(withoutFences(markdown));
  const lineAt = (index: number) => text.slice(0, index).split("\n").length;
  const links: Link[] = [];
  const inline =
    /!?\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\(\s*(<[^>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
  const scan = (part: string, offset: number) => {
    for (const m of part.matchAll(inline)) {
      links.push({ line: lineAt(offset + m.index), text: m[0].split("\n").join(" "), target: m[2].replace(/^<|>$/g, "") });
      scan(m[1], offset + m.index + m[0].indexOf(m[1])); // an image inside a link's text
    }
  };
  scan(text, 0);
  for (const m of text.matchAll(/^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)/gm)) {
    links.push({ line: lineAt(m.index), text: m[0], target: m[1].replace(/^<|>$/g, "") });
  }
  for (const m of text.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) {
    links.push({ line: lineAt(m.index), text: m[0], target: m[1] });
  }
  return links.sort((a, b) => a.line - b.line);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** What is wrong with each relative link of the document at `file` (absolute path) in the tree at `root`: [] when all resolve. */
function brokenLinks(file: string, root: string = ROOT): string[] {
  const markdown = readFileSync(file, "utf8");
  const where = path.relative(root, file);
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (target: string) => {
    if (!anchorCache.has(target)) anchorCache.set(target, anchorsOf(target === file ? markdown : readFileSync(target, "utf8")));
    return anchorCache.get(target)!;
  };
  const broken: string[] = [];
  for (const { line, text, target } of linksOf(markdown)) {
    if (isExternal(target)) continue;
    const hash = target.indexOf("#");
    const pathPart = decode((hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, ""));
    const fragment = hash < 0 ? undefined : decode(target.slice(hash + 1));
    const resolved = pathPart === "" ? file : path.resolve(pathPart.startsWith("/") ? root : path.dirname(file), pathPart.replace(/^\/+/, ""));
    const at = `${where}:${line}: ${text}`;
    if (path.relative(root, resolved).startsWith("..")) {
      broken.push(`${at}: points outside the repository`);
      continue;
    }
    if (!existsSync(resolved)) {
      broken.push(`${at}: ${path.relative(root, resolved)} does not exist`);
      continue;
    }
    if (fragment === undefined || !resolved.endsWith(".md") || statSync(resolved).isDirectory()) continue;
    if (!anchors(resolved).has(fragment)) broken.push(`${at}: no heading with the anchor "#${fragment}" in ${path.relative(root, resolved)}`);
  }
  return broken;
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("documentation links", () => {
  it("checks README.md, ARCHITECTURE.md and the docs/ folder", () => {
    const docs = documents();
    expect(docs).toEqual(expect.arrayContaining(["README.md", "ARCHITECTURE.md", "docs/api.md", "docs/webhooks.md"]));
    for (const doc of docs) expect(existsSync(path.join(ROOT, doc)), doc).toBe(true);
  });

  for (const doc of documents()) {
    it(`${doc}: every relative link and image resolves, fragments included`, () => {
      expect(brokenLinks(path.join(ROOT, doc))).toEqual([]);
    });
  }

  it(`README.md has at most ${README_MAX_LINES} lines`, () => {
    expect(lineCount(readFileSync(path.join(ROOT, "README.md"), "utf8"))).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe("the link checker", () => {
  it("slugs headings as GitHub does, repeats numbered", () => {
    const slug = slugger();
    expect(slug("Background work: embedded runner or Inngest")).toBe("background-work-embedded-runner-or-inngest");
    expect(slug("Fulfil only on `PAYMENT_COMPLETED`")).toBe("fulfil-only-on-payment_completed");
    expect(slug("Delivery log and redelivery (admin API)")).toBe("delivery-log-and-redelivery-admin-api");
    expect(slug("1. Shape")).toBe("1-shape");
    expect(slug("TEST MODE — simulated chain")).toBe("test-mode--simulated-chain");
    expect(slug("Retries")).toBe("retries");
    expect(slug("Retries")).toBe("retries-1");
    expect(slug("Retries")).toBe("retries-2");
  });

  it("reads headings, not lines of code, as anchors", () => {
    const anchors = anchorsOf("# Title\n\n## Set the note ##\n\n```sh\n# not a heading\n```\n\nSetext\n------\n");
    expect([...anchors]).toEqual(["title", "set-the-note", "setext"]);
  });

  it("finds links and images outside code only", () => {
    const md = [
      "See [the API](docs/api.md#errors) and ![logo](img/logo.png).",
      "Not `[code](nowhere.md)` nor ``a `[x](y.md)` b``.",
      "```md",
      "[fenced](nowhere.md)",
      "```",
      "[![badge](badge.svg)](https://example.com) [a",
      "wrapped link](wrapped.md \"title\")",
      "[ref]: ./ref.md",
    ].join("\n");
    expect(linksOf(md).map((l) => [l.line, l.target])).toEqual([
      [1, "docs/api.md#errors"],
      [1, "img/logo.png"],
      [6, "https://example.com"],
      [6, "badge.svg"],
      [6, "wrapped.md"],
      [8, "./ref.md"],
    ]);
  });

  it("reports a missing file, a missing heading and a link out of the tree; accepts the rest", () => {
    const root = mkdtempSync(path.join(tmpdir(), "docs-links-"));
    mkdirSync(path.join(root, "docs"));
    mkdirSync(path.join(root, "lib"));
    writeFileSync(path.join(root, "lib", "x.ts"), "");
    writeFileSync(path.join(root, "docs", "guide.md"), "# Guide\n\n## How it works\n");
    writeFileSync(
      path.join(root, "README.md"),
      [
        "# Readme",
        "[ok](docs/guide.md#how-it-works) [ok](#readme) [ok](lib/) [ok](/lib/x.ts) [ok](https://x.test/#nope) [ok](mailto:a@b.c)",
        "[gone](docs/missing.md)",
        "[bad anchor](docs/guide.md#how-it-work)",
        "[bad self](#nothing)",
        "[outside](../elsewhere.md)",
        "`[code](docs/missing.md)`",
      ].join("\n"),
    );
    expect(brokenLinks(path.join(root, "README.md"), root)).toEqual([
      "README.md:3: [gone](docs/missing.md): docs/missing.md does not exist",
      'README.md:4: [bad anchor](docs/guide.md#how-it-work): no heading with the anchor "#how-it-work" in docs/guide.md',
      'README.md:5: [bad self](#nothing): no heading with the anchor "#nothing" in README.md',
      "README.md:6: [outside](../elsewhere.md): points outside the repository",
    ]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });
});
