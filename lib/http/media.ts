/** D12: success bodies in application/json (default), text/json or text/plain. */
const SUCCESS_TYPES = ["application/json", "text/json", "text/plain"] as const;
export type SuccessType = (typeof SUCCESS_TYPES)[number];

type Range = { type: string; q: number; order: number };

function parseAccept(accept: string | null): Range[] {
  if (!accept) return [];
  return accept
    .split(",")
    .map((part, order) => {
      const [type, ...params] = part.trim().toLowerCase().split(";");
      let q = 1;
      for (const p of params) {
        const [k, v] = p.trim().split("=");
        if (k === "q") q = Number.isFinite(Number(v)) ? Number(v) : 0;
      }
      return { type: type.trim(), q, order };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
}

/** The first of our three types the client names explicitly (by preference), if any. */
function named(accept: string | null): SuccessType | undefined {
  for (const r of parseAccept(accept)) {
    const hit = SUCCESS_TYPES.find((t) => t === r.type);
    if (hit) return hit;
  }
  return undefined;
}

export function successType(accept: string | null): SuccessType {
  return named(accept) ?? "application/json";
}

/** Errors are application/problem+json unless the client asked for one of our three types. */
export function problemType(accept: string | null): string {
  const ranges = parseAccept(accept);
  if (ranges.some((r) => r.type === "application/problem+json")) return "application/problem+json";
  return named(accept) ?? "application/problem+json";
}

/** D12: request bodies are JSON under application/json, text/json or any application/<name>+json. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const essence = contentType.split(";")[0].trim().toLowerCase();
  return (
    essence === "application/json" ||
    essence === "text/json" ||
    /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(essence)
  );
}
