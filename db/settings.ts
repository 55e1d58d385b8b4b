import { z } from "zod";

/**
 * The database's part of the environment, defined here so that db/ needs nothing from lib/:
 * lib/config folds the same schema into the service's whole configuration (and reports its
 * problems with the rest at start-up); db/client.ts reads it on its own.
 */
export const DATABASE_ENV = {
  // An empty value (`DATABASE_URL=`) means unset: the embedded database.
  DATABASE_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL").optional(),
  ),
  DATA_DIR: z.string().min(1).default("./.data"),
};

const databaseEnv = z.object(DATABASE_ENV);

export type DatabaseSettings = {
  /** A PostgreSQL URL, or undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** Directory of the embedded database; ":memory:" keeps it in memory. */
  dataDir: string;
};

export function databaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const e = databaseEnv.parse(env);
  return { databaseUrl: e.DATABASE_URL, dataDir: e.DATA_DIR };
}
