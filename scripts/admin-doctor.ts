import { readFileSync } from "node:fs";
import { parseArgs, parseEnv } from "node:util";
import { checkConfiguration } from "./doctor/configuration";
import { checkDatabase } from "./doctor/database";
import { CHECK_TIMEOUT_MS, formatLine, type CheckLine } from "./doctor/lines";
import { checkChains, checkPublicUrl, checkRates, checkSmtp } from "./doctor/services";

/**
 * `npm run admin -- doctor [--env-file FILE]`: checks what the service needs, from this
 * machine and with the service's environment (the process's, with FILE's variables over it,
 * e.g. the systemd unit's /etc/payments/payments.env): the configuration, the database and its
 * migrations, every configured chain node, the rate source, the SMTP server and the public URL.
 * One line per check, OK, WARN or FAIL, with what to do; exit code 1 when any check fails.
 * It changes nothing (no migration, no generated secret, no e-mail sent).
 */

export const DOCTOR_HELP = `Usage: npm run admin -- doctor [--env-file FILE]

Checks the configuration (every variable, as npm start reads it), the database and its
migrations, each configured chain node (reachable, which network), the exchange-rate source,
the SMTP server (SMTP_URL) and PUBLIC_BASE_URL/healthz. Prints one line per check (OK, WARN or
FAIL, then what to do) and exits 1 when any check fails.

  --env-file FILE   read the service's variables from FILE (KEY=value lines, as systemd's
                    EnvironmentFile), over this process's environment`;

type Io = { env: Record<string, string | undefined>; out: (s: string) => void; err: (s: string) => void };

export async function doctor(argv: string[], io: Io): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { "env-file": { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true }));
  } catch (e) {
    io.err(`${(e as Error).message.split("\n")[0]}\n\n${DOCTOR_HELP}`);
    return 2;
  }
  if (values.help) {
    io.out(DOCTOR_HELP);
    return 0;
  }
  let env = io.env;
  if (values["env-file"]) {
    try {
      env = { ...env, ...parseEnv(readFileSync(values["env-file"], "utf8")) };
    } catch (e) {
      io.err(`Cannot read ${values["env-file"]}: ${(e as Error).message}`);
      return 2;
    }
  }

  const lines: CheckLine[] = [];
  const print = (l: CheckLine) => {
    lines.push(l);
    io.out(formatLine(l));
  };
  const { config, lines: configLines } = checkConfiguration(env);
  configLines.forEach(print);
  if (!config) {
    io.out("\nThe other checks need a configuration that parses: correct the FAIL lines above and run the doctor again.");
    return 1;
  }
  // Each check waits for its own servers; asked together, the slowest bounds the run.
  const groups = await Promise.all([
    checkDatabase(config, env, CHECK_TIMEOUT_MS),
    checkChains(config, env, CHECK_TIMEOUT_MS),
    checkRates(config, CHECK_TIMEOUT_MS),
    checkSmtp(config, CHECK_TIMEOUT_MS),
    checkPublicUrl(config, CHECK_TIMEOUT_MS),
  ]);
  groups.flat().forEach(print);

  const failed = lines.filter((l) => l.verdict === "FAIL").length;
  const warned = lines.filter((l) => l.verdict === "WARN").length;
  io.out(
    failed
      ? `\n${failed} check${failed > 1 ? "s" : ""} failed, ${warned} warning${warned === 1 ? "" : "s"}: the service cannot work as configured until the FAIL lines are fixed.`
      : `\nNo check failed${warned ? `; ${warned} warning${warned === 1 ? "" : "s"} to read` : ""}.`,
  );
  return failed ? 1 : 0;
}
