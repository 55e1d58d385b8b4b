/**
 * postgres.js reads a connection URL's query parameters as server settings, so libpq's
 * `?host=/var/run/postgresql` (a Unix socket directory) would reach PostgreSQL as an unknown
 * setting and fail. Taken out here and passed as the `host` option, which postgres.js turns into
 * the socket path.
 */
export function postgresConnection(databaseUrl: string): { url: string; host?: string } {
  const url = new URL(databaseUrl);
  const host = url.searchParams.get("host");
  if (!host) return { url: databaseUrl };
  url.searchParams.delete("host");
  return { url: url.toString(), host };
}
