import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  isArgumentElement,
  isDateElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  isTimeElement,
  parse,
  type MessageFormatElement,
} from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@/domain/locales";

const MESSAGES_DIR = path.join(__dirname, "../../messages");

/**
 * Messages that read the same in some language as in English on purpose: a bare pattern of
 * arguments, and the e-mail placeholder, which keeps an example.com address in every language.
 */
const SAME_AS_ENGLISH_ALLOWED = new Set(["checkout.summary.coin", "checkout.email.placeholder"]);

/** Shorter English texts (labels such as "Total" or "(optional)") may well be spelled alike. */
const UNTRANSLATED_MIN_LENGTH = 13;

type Messages = { [key: string]: string | Messages };

function load(locale: Locale): Map<string, string> {
  const tree = JSON.parse(readFileSync(path.join(MESSAGES_DIR, `${locale}.json`), "utf8")) as Messages;
  const flat = new Map<string, string>();
  const walk = (node: Messages, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const at = prefix ? `${prefix}.${key}` : key;
      if (typeof value === "string") flat.set(at, value);
      else walk(value, at);
    }
  };
  walk(tree, "");
  return flat;
}

interface Shape {
  args: Set<string>;
  tags: Set<string>;
  /** The selectors of each plural argument, by the argument's name. */
  plurals: Map<string, string[]>;
}

/** The parts of a message a translation must keep: its arguments, its rich-text tags, its plurals. */
function shapeOf(message: string): Shape {
  // next-intl formats with intl-messageformat, which parses with these defaults (tags on).
  const ast = parse(message, { requiresOtherClause: true });
  const shape: Shape = { args: new Set(), tags: new Set(), plurals: new Map() };
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (isArgumentElement(el) || isNumberElement(el) || isDateElement(el) || isTimeElement(el)) {
        shape.args.add(el.value);
      } else if (isPluralElement(el) || isSelectElement(el)) {
        shape.args.add(el.value);
        if (isPluralElement(el)) shape.plurals.set(el.value, Object.keys(el.options));
        for (const option of Object.values(el.options)) walk(option.value);
      } else if (isTagElement(el)) {
        shape.tags.add(el.value);
        walk(el.children);
      }
    }
  };
  walk(ast);
  return shape;
}

/** The plural categories whole numbers up to 1000 fall into in this language: a plural must offer each. */
function integerCategories(locale: Locale): Set<string> {
  const rules = new Intl.PluralRules(locale);
  const seen = new Set<string>();
  for (let n = 0; n <= 1000; n++) seen.add(rules.select(n));
  return seen;
}

const sorted = (values: Iterable<string>) => [...values].sort();
const english = load(DEFAULT_LOCALE);

describe("checkout messages", () => {
  it("has one messages file for each offered language, and no other", () => {
    const files = readdirSync(MESSAGES_DIR)
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -".json".length));
    expect(sorted(files)).toEqual(sorted(LOCALES));
  });

  describe.each(LOCALES)("%s", (locale) => {
    const messages = load(locale);

    it("has exactly the English keys", () => {
      expect(sorted(messages.keys())).toEqual(sorted(english.keys()));
    });

    it("parses as ICU and keeps each message's arguments, tags and plurals", () => {
      const categoriesOfLanguage = new Set(new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]);
      const needed = integerCategories(locale);
      const problems: string[] = [];
      const differs = (a: Iterable<string>, b: Iterable<string>) => sorted(a).join() !== sorted(b).join();
      for (const [key, message] of messages) {
        const source = english.get(key);
        if (source === undefined) continue;
        let shape: Shape;
        try {
          shape = shapeOf(message);
        } catch (error) {
          problems.push(`${key}: not valid ICU (${String(error)})`);
          continue;
        }
        const want = shapeOf(source);
        if (differs(shape.args, want.args)) problems.push(`${key}: arguments ${sorted(shape.args)}, English has ${sorted(want.args)}`);
        if (differs(shape.tags, want.tags)) problems.push(`${key}: tags ${sorted(shape.tags)}, English has ${sorted(want.tags)}`);
        if (differs(shape.plurals.keys(), want.plurals.keys())) problems.push(`${key}: plural arguments differ from English`);
        for (const [name, selectors] of shape.plurals) {
          const categories = selectors.filter((s) => !s.startsWith("="));
          if (!categories.includes("other")) problems.push(`${key}: {${name}} has no "other"`);
          const foreign = categories.filter((c) => !categoriesOfLanguage.has(c));
          if (foreign.length) problems.push(`${key}: {${name}} uses ${foreign}, not a category of ${locale}`);
          const missing = [...needed].filter((c) => !categories.includes(c));
          if (missing.length) problems.push(`${key}: {${name}} lacks ${missing}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it("uses the typographic apostrophe, which ICU does not treat as a quote", () => {
      if (locale === DEFAULT_LOCALE) return;
      const straight = [...messages].filter(([, m]) => m.includes("'")).map(([key]) => key);
      expect(straight).toEqual([]);
    });

    it("translates every longer message", () => {
      if (locale === DEFAULT_LOCALE) return;
      const untranslated = [...messages]
        .filter(([key, m]) => m === english.get(key) && m.length >= UNTRANSLATED_MIN_LENGTH)
        .map(([key]) => key)
        .filter((key) => !SAME_AS_ENGLISH_ALLOWED.has(key));
      expect(untranslated).toEqual([]);
    });
  });
});

describe("the message checks themselves", () => {
  it("see arguments and tags inside plurals and tags, and reject broken ICU", () => {
    const shape = shapeOf("<b>{a}</b> {n, plural, one {# {b}} other {<i>{c}</i>}}");
    expect(sorted(shape.args)).toEqual(["a", "b", "c", "n"]);
    expect(sorted(shape.tags)).toEqual(["b", "i"]);
    expect(shape.plurals.get("n")).toEqual(["one", "other"]);
    expect(() => shapeOf("{n, plural, one {#}}")).toThrow();
    expect(() => shapeOf("<b>open")).toThrow();
    expect(() => shapeOf("{name")).toThrow();
  });

  it("know which plural categories whole numbers need", () => {
    expect(sorted(integerCategories("ru"))).toEqual(["few", "many", "one"]);
    expect(sorted(integerCategories("ar"))).toEqual(["few", "many", "one", "other", "two", "zero"]);
    expect(sorted(integerCategories("ja"))).toEqual(["other"]);
  });
});
