import type { Metadata } from "next";
import Link from "next/link";
import { MethodBadge, Operation, operationAnchor } from "@/components/docs/operation";
import { HTTP_METHODS, type Json } from "@/components/docs/schema";
import { Authentication, Errors, Schemas, h2 } from "@/components/docs/sections";
import { Code, link, Text } from "@/components/docs/text";
import { openApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API reference · Crypto payments" };

// Rendered per request from the runtime configuration (the base URL comes from PUBLIC_BASE_URL).
export const dynamic = "force-dynamic";

type Op = { path: string; method: string; op: Json };

function operationsByTag(doc: Json): [string, Json | undefined, Op[]][] {
  const tags: Json[] = doc.tags ?? [];
  const groups = new Map<string, Op[]>(tags.map((t) => [t.name as string, []]));
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag: string = op.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ path, method, op });
    }
  }
  return [...groups].map(([name, ops]) => [name, tags.find((t) => t.name === name), ops]);
}

/** The contents: a list of links only, told apart from the page by their place (underlined on hover). */
const navLink = "text-blue-700 hover:underline";

export default async function DocsPage() {
  const doc = openApiDocument() as Json;
  const groups = operationsByTag(doc);
  const base: string = doc.servers?.[0]?.url ?? "";
  return (
    <div className="mx-auto max-w-6xl px-6 py-10 lg:grid lg:grid-cols-[14rem_1fr] lg:gap-10">
      <nav aria-label="Contents" className="mb-8 text-sm lg:sticky lg:top-6 lg:mb-0 lg:max-h-[calc(100vh-3rem)] lg:self-start lg:overflow-y-auto">
        <Link href="/" className={navLink}>
          ← Home
        </Link>
        <ul className="mt-4 space-y-1">
          <li><a href="#overview" className={navLink}>Overview</a></li>
          <li><a href="#authentication" className={navLink}>Authentication</a></li>
          {groups.map(([tag, , ops]) => (
            <li key={tag}>
              <a href={`#tag-${tag}`} className={navLink}>{tag}</a>
              <ul className="mt-1 mb-2 space-y-1 pl-3">
                {ops.map(({ path, method, op }) => (
                  <li key={`${method} ${path}`}>
                    <a href={`#${operationAnchor(op, method, path)}`} className="text-slate-700 hover:underline">
                      {op.summary}
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          <li><a href="#errors" className={navLink}>Errors</a></li>
          <li><a href="#schemas" className={navLink}>Schemas</a></li>
        </ul>
      </nav>

      <main className="min-w-0 space-y-12">
        <header id="overview" className="space-y-3">
          <h1 className="text-3xl font-semibold">{doc.info?.title}</h1>
          <p className="text-sm text-slate-500">Version {doc.info?.version} · OpenAPI {doc.openapi}</p>
          <p className="text-slate-700">
            <Text text={doc.info?.description} />
          </p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            <li>
              Base URL: <Code>{base}</Code>. Every merchant endpoint starts with <Code>/v1/</Code>.
            </li>
            <li>
              Request bodies are JSON (<Code>application/json</Code>, <Code>text/json</Code> or another{" "}
              <Code>application/&lt;name&gt;+json</Code> type); unknown fields are rejected.
            </li>
            <li>
              Success bodies are <Code>application/json</Code> by default, or <Code>text/json</Code> /{" "}
              <Code>text/plain</Code> when <Code>Accept</Code> asks for them.
            </li>
            <li>
              Machine-readable description:{" "}
              <a href="/v1/openapi.json" className={link}>
                /v1/openapi.json
              </a>{" "}
              (OpenAPI 3.1).
            </li>
          </ul>
        </header>

        <Authentication doc={doc} />

        {groups.map(([tag, info, ops]) => (
          <section key={tag} id={`tag-${tag}`} className="scroll-mt-4 space-y-4">
            <h2 className={h2}>{tag}</h2>
            {info?.description && (
              <p className="text-sm text-slate-700">
                <Text text={info.description} />
              </p>
            )}
            <ul className="space-y-1 text-sm">
              {ops.map(({ path, method, op }) => (
                <li key={`${method} ${path}`} className="flex items-center gap-3">
                  <MethodBadge method={method} />
                  <a href={`#${operationAnchor(op, method, path)}`} className="break-all font-mono text-slate-800 hover:underline">
                    {path}
                  </a>
                </li>
              ))}
            </ul>
            {ops.map(({ path, method, op }) => (
              <Operation key={`${method} ${path}`} doc={doc} path={path} method={method} op={op} />
            ))}
          </section>
        ))}

        <Errors doc={doc} />
        <Schemas doc={doc} />
      </main>
    </div>
  );
}
