import { existsSync } from "node:fs";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { postgresConnection } from "@/db/postgres-url";

describe("DATABASE_URL with a Unix socket (libpq's ?host=/dir)", () => {
  it("takes host out of the query string, keeping every other parameter", () => {
    expect(postgresConnection("postgres://u:p@localhost/db?host=/var/run/postgresql&sslmode=disable")).toEqual({
      url: "postgres://u:p@localhost/db?sslmode=disable",
      host: "/var/run/postgresql",
    });
  });

  it("leaves a URL without host untouched", () => {
    const url = "postgres://u@127.0.0.1:5432/db?application_name=x";
    expect(postgresConnection(url)).toEqual({ url });
  });

  // The machine's own PostgreSQL socket, when there is one (Debian's default directory).
  const dir = "/var/run/postgresql";
  it.runIf(process.env.DATABASE_URL && existsSync(`${dir}/.s.PGSQL.5432`))("connects through the socket", async () => {
    const name = new URL(process.env.DATABASE_URL!).pathname.slice(1);
    const { url, host } = postgresConnection(`postgres://postgres@localhost/${name}?host=${dir}`);
    const sql = postgres(url, { host, max: 1 });
    try {
      const [row] = await sql`select inet_server_addr() as addr, current_database() as db`;
      expect(row).toEqual({ addr: null, db: name }); // no server address: not over TCP
    } finally {
      await sql.end();
    }
  });
});
