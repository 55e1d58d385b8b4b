// The process's logger (docs/monitoring.md, "Logs"): pino, JSON lines or readable lines
// (LOG_FORMAT), from LOG_LEVEL, every argument redacted (log/redact.mjs), every line written
// while a request is handled carrying its id. Plain JavaScript, made once per process on
// globalThis like the metrics (lib/metrics/registry.mjs): the production server makes it before
// Next.js loads, and the route handlers, server actions and instrumentation, bundled apart with
// their own copy of this module, find the same logger and the same request context.

import { AsyncLocalStorage } from "node:async_hooks";
import { format, stripVTControlCharacters } from "node:util";
import pino from "pino";
import pretty from "pino-pretty";
import { redactor, secretsOf } from "./redact.mjs";

const LOG = Symbol.for("cryptopay.log");
const TO_STDERR = Symbol.for("cryptopay.log.stderr");

const FORMATS = ["json", "pretty"];

/**
 * LOG_LEVEL and LOG_FORMAT (unset: JSON lines in production, readable lines otherwise). lib/config
 * validates both with the rest of the environment and stops the start on a wrong value; the
 * production server makes the logger before the app and its configuration load, so until that
 * check a wrong value falls back to the default here rather than failing on import.
 */
export function logSettings(env) {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  const lineFormat = env.LOG_FORMAT?.trim().toLowerCase();
  return {
    level: level && (level === "silent" || level in pino.levels.values) ? level : "info",
    format: FORMATS.includes(lineFormat) ? lineFormat : env.NODE_ENV === "production" ? "json" : "pretty",
  };
}

function make() {
  const settings = logSettings(process.env);
  const { level, format: lineFormat } = settings;
  const redact = redactor(secretsOf(process.env));
  const requests = new AsyncLocalStorage();
  const options = {
    level,
    // pino's own `redact` paths are not used: with wildcards they cost four times a whole line,
    // and the walk below covers any depth (childLogger redacts a child's bindings the same way).
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Call arguments arrive serialized and redacted (hooks below); an Error a child logger was bound with is made so here.
    serializers: { err: (e) => (e instanceof Error ? redact.value(e) : e) },
    // The request being handled, if any: its id joins every line, whichever bundle writes it. A
    // fresh object each time: pino merges the line's fields into what the mixin returns.
    mixin: () => {
      const request = requests.getStore();
      return request ? { requestId: request.requestId } : {};
    },
    hooks: {
      logMethod(args, method) {
        // An Error first is pino's `{ err }`: serialize it here, so the redactor sees its message and stack.
        const first = args[0] instanceof Error ? { err: args[0] } : args[0];
        return method.apply(this, [redact.value(first), ...args.slice(1).map((a) => redact.value(a))]);
      },
    },
  };
  // The service logs to stdout; a CLI whose stdout is its answer logs to stderr (logToStderr).
  const fd = globalThis[TO_STDERR] ? 2 : 1;
  const stream = fd === 2 ? process.stderr : process.stdout;
  const destination =
    lineFormat === "pretty"
      ? pretty({ sync: true, destination: fd, colorize: Boolean(stream.isTTY), translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
      : pino.destination({ dest: fd, sync: true });
  return { root: pino(options, destination), requests, settings, redact };
}

function state() {
  globalThis[LOG] ??= make();
  return globalThis[LOG];
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"];

/**
 * What the service logs through: `log.warn({ chain, height }, "the chain reorganised")`. Fields
 * first, then a message for people; an Error goes under `err`. Each call reaches the process's one
 * logger (tests spy on these methods).
 */
export const log = Object.fromEntries(LEVELS.map((level) => [level, (...args) => state().root[level](...args)]));

/**
 * Writes the log to stderr instead of stdout, for a command-line tool whose stdout is its answer
 * (the admin CLI prints JSON there). Called before the first line is written.
 */
export function logToStderr() {
  globalThis[TO_STDERR] = true;
}

/** Whether a level would be written: to skip building what a debug line would say. */
export function logs(level) {
  return state().root.isLevelEnabled(level);
}

/** A pino child logger with fields on every line, redacted once, here (pino does not pass bindings through the hooks). */
export function childLogger(bindings) {
  const { root, redact } = state();
  return root.child(redact.value(bindings));
}

/** The level and format the logger runs with. */
export function loggerSettings() {
  return state().settings;
}

/** Secrets the environment does not hold (generated ones): redacted from here on like the environment's. */
export function addSecrets(values) {
  state().redact.add(values);
}

/** Runs `fn` as the handling of the request `requestId`: every line written inside carries it. */
export function inRequest(requestId, fn) {
  return state().requests.run({ requestId }, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId() {
  return state().requests.getStore()?.requestId;
}

/**
 * Sends console output through the logger, so what Next.js and libraries print is a redacted line
 * of the same format (the production server does this; `next dev` keeps its own console).
 */
export function routeConsoleToLog() {
  const pairs = [["log", "info"], ["info", "info"], ["warn", "warn"], ["error", "error"], ["debug", "debug"], ["trace", "trace"]];
  for (const [name, level] of pairs) {
    console[name] = (...args) => {
      const root = state().root;
      if (!root.isLevelEnabled(level)) return;
      const err = args.find((a) => a instanceof Error);
      // Next.js colours its lines for a terminal; a log keeps the words.
      const text = stripVTControlCharacters(format(...args.filter((a) => a !== err)));
      root[level](err ? { source: "console", err } : { source: "console" }, text || err?.message);
    };
  }
}
