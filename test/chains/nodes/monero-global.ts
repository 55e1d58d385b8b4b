import { stopSharedMonerods } from "./monero";

/** Vitest global setup: stops the monerod the Monero test files shared (test/chains/nodes/monero.ts), if one started it. */
export default function setup() {
  return () => stopSharedMonerods(process.pid);
}
