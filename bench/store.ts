import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Fixture } from "./scenarios";

/**
 * `--reuse-store`: what a run keeps beside the store it seeded, so that a later run with as many
 * payments measures the same store without seeding it again (a million payments take 1.5-8
 * minutes to seed). The service's secrets are kept too: the fixture's API key is signed with them.
 */
export type StoredFixture = { payments: number; fixture: Fixture; apiKeySecret: string; adminToken: string };

/** The fixture kept in `file` for a store of `payments` payments, if there is one. */
export function readStored(file: string, payments: number): StoredFixture | undefined {
  if (!existsSync(file)) return undefined;
  const s = JSON.parse(readFileSync(file, "utf8")) as StoredFixture & { fixture: { anchor: string } };
  if (s.payments !== payments) return undefined;
  return { ...s, fixture: { ...s.fixture, anchor: new Date(s.fixture.anchor) } };
}

export function writeStored(file: string, s: StoredFixture): void {
  writeFileSync(file, JSON.stringify(s));
}

/** Before the store is reset: a run that stops while seeding leaves no fixture that looks whole. */
export function forgetStored(file: string): void {
  rmSync(file, { force: true });
}
