/** `npm run admin -- <command>`: see scripts/admin-cli.ts, or `npm run admin -- help`. */
import { logToStderr } from "@/log/logger.mjs";
import { run } from "./admin-cli";

// The answer (often JSON) goes to stdout; what the modules log goes beside it on stderr.
logToStderr();

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  out: (s) => console.log(s),
  err: (s) => console.error(s),
});
// A connection a check gave up on (a node that accepted and never answered) must not hold the prompt.
setTimeout(() => process.exit(), 200).unref();
