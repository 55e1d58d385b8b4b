import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Crypto payment service</h1>
      <p className="mt-4 text-slate-600">
        Merchants create payments through the REST API; customers pay on the hosted checkout page.
      </p>
      <ul className="mt-8 space-y-2">
        <li>
          <Link className="text-blue-700 underline" href="/dashboard">Merchant dashboard</Link>
        </li>
        <li>
          <Link className="text-blue-700 underline" href="/docs">API reference</Link>
        </li>
        <li>
          <a className="text-blue-700 underline" href="/v1/openapi.json">OpenAPI document</a>
        </li>
      </ul>
    </main>
  );
}
