import type { PGlite, Transaction, QueryOptions, Results } from "@electric-sql/pglite";
import { parse, protocol } from "@electric-sql/pglite";
import { isPlannedPerExecution } from "./prepared";

/*
 * PGlite's own `query()` sends each statement unnamed, in six calls into the WebAssembly
 * backend (Parse, Describe, Bind, Describe, Execute, Sync), and PostgreSQL parses, analyses and
 * plans the text again every time. For the service's hot statements — the same few texts over
 * and over — that planning and the six crossings were most of a request's cost on the embedded
 * database. PGlite has no option for named statements, so this wraps the client drizzle is
 * given: a statement's text is parsed once under a name (and its parameter types described
 * once), and every execution is then one call carrying Bind, Describe, Execute and Sync, which
 * PostgreSQL runs on its cached plan (it may settle on a generic plan after five executions,
 * as with postgres.js's named statements on PostgreSQL).
 *
 * Statements whose best plan depends on their values (the list filters: see
 * `plannedPerExecution` in db/prepared.ts) are sent unnamed, still in one call, so PostgreSQL
 * plans each execution for its values.
 *
 * Only parameterised statements take this path; the rest (migrations, savepoints, raw SQL
 * without values) go through PGlite's own `query()` unchanged.
 */

const { serialize } = protocol;

/** Statements held under a name per database; past this the least recently used is closed. */
const MAX_NAMED = 200;

type Statement = { name: string; paramTypes: number[] };
type Runner = Pick<PGlite, "execProtocolStream">;

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function exchange(pg: Runner, parts: Uint8Array[]) {
  const messages = await pg.execProtocolStream(concat([...parts, serialize.sync()]), {
    syncToFs: false,
    throwOnError: false,
  });
  // The buffer ends with Sync, so after an error the backend is already back at ReadyForQuery.
  const error = messages.find((m) => m.name === "error");
  if (error) throw error;
  return messages;
}

export function withNamedStatements(pg: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  let counter = 0;

  async function describe(text: string, name: string, paramTypes?: number[]): Promise<Statement> {
    const messages = await exchange(pg, [
      serialize.parse({ name, text, types: paramTypes }),
      serialize.describe({ type: "S", name }),
    ]);
    return { name, paramTypes: parse.parseDescribeStatementResults(messages) };
  }

  async function statementFor(text: string, options?: QueryOptions): Promise<Statement> {
    const known = statements.get(text);
    if (known) {
      // Map order is insertion order: re-inserting marks it most recently used.
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    if (isPlannedPerExecution(text)) {
      // Only its parameter types are kept; the text is parsed again with every execution.
      const statement = await describe(text, "", options?.paramTypes);
      statements.set(text, statement);
      return statement;
    }
    if (statements.size >= MAX_NAMED) {
      const [oldestText, oldest] = statements.entries().next().value as [string, Statement];
      statements.delete(oldestText);
      if (oldest.name) await exchange(pg, [serialize.close({ type: "S", name: oldest.name })]);
    }
    const statement = await describe(text, `drizzle_${++counter}`, options?.paramTypes);
    statements.set(text, statement);
    return statement;
  }

  async function run(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    try {
      return await execute(text, params, options);
    } catch (error) {
      // A named statement whose tables changed shape since it was parsed ("cached plan must
      // not change result type"): parse it again, once. Inside a transaction the error has
      // already aborted it, so the caller sees the error.
      const named = statements.get(text)?.name;
      if (inTransaction || !named || (error as { code?: string }).code !== "0A000") throw error;
      statements.delete(text);
      await exchange(pg, [serialize.close({ type: "S", name: named })]);
      return execute(text, params, options);
    }
  }

  async function execute(text: string, params: unknown[], options?: QueryOptions): Promise<Results> {
    const statement = await statementFor(text, options);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i];
      const serializer = options?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const parts = [
      serialize.bind({ statement: statement.name, values: values as string[] }),
      serialize.describe({ type: "P" }),
      serialize.execute({}),
    ];
    if (!statement.name) parts.unshift(serialize.parse({ text, types: options?.paramTypes }));
    const messages = await exchange(pg, parts);
    return parse.parseResults(messages, pg.parsers, options)[0];
  }

  const fastPath = (params?: unknown[]) => params !== undefined && params.length > 0;

  const query = async (text: string, params?: unknown[], options?: QueryOptions) => {
    if (!fastPath(params)) return pg.query(text, params, options);
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        const result = await run(text, params!, options, false);
        await pg.syncToFs();
        return result;
      }),
    );
  };

  const transaction = <T>(fn: (tx: Transaction) => Promise<T>) =>
    pg.transaction((tx) => {
      const wrapped = Object.create(tx) as Transaction;
      wrapped.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
        if (!fastPath(params)) return tx.query(text, params, options);
        if (tx.closed) throw new Error("Transaction is closed");
        // The transaction holds PGlite's transaction lock; the query lock keeps other work
        // (LISTEN, a dump) from interleaving, as PGlite's own query() does.
        return pg._runExclusiveQuery(() => run(text, params!, options, true));
      }) as Transaction["query"];
      return fn(wrapped);
    });

  // Everything else (exec, close, listen, …) is PGlite's own, called on PGlite itself: its
  // methods use private fields, which a Proxy receiver would not have.
  return new Proxy(pg, {
    get(target, key) {
      if (key === "query") return query;
      if (key === "transaction") return transaction;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
