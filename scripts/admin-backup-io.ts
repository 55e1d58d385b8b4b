/** What `backup` and `restore` (scripts/admin-backup.ts, admin-backup-postgres.ts) share. */

export type BackupIo = { env: Record<string, string | undefined>; out: (s: string) => void; err: (s: string) => void };

/** A refusal the operator acts on: printed as is, exit code 1. */
export class Refusal extends Error {}
