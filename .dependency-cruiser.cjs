/**
 * The floor plan the linter holds (`npm run lint`; ARCHITECTURE.md draws the same table, and
 * test/architecture.test.ts keeps the two equal and proves the rules bite).
 *
 * Top level, an arrow pointing down only:
 *   app/ → components/, inngest/ (the Inngest route), lib/, db/, domain/
 *   components/ → lib/, db/ (types), domain/       inngest/ → lib/, db/, domain/
 *   lib/ → db/, log/, domain/                       db/ → domain/, log/
 *   log/ → nothing of ours                          domain/ → nothing of ours
 *
 * Inside lib/, each folder sits on a layer: it may import the folders of lower layers, never
 * one of its own layer or above.
 */
const LIB_LAYERS = [
  ["config"],
  ["http", "metrics"],
  ["accounts", "events", "geo", "wallets"],
  ["chains", "emails", "rates", "webhooks"],
  ["payments", "businesses", "health"],
  ["background", "checkout"],
  ["dashboard", "openapi"],
];

const any = (names) => `(${names.join("|")})`;

/** One rule per layer: its folders import nothing of their own layer (but themselves) or above. */
const layerRules = LIB_LAYERS.flatMap((layer, i) => {
  const above = LIB_LAYERS.slice(i + 1).flat();
  return layer.map((folder) => ({
    name: `lib-layers:${folder}`,
    comment: `lib/${folder} is on layer ${i}: it imports only lib/ folders of lower layers (ARCHITECTURE.md, "lib/ folders").`,
    severity: "error",
    from: { path: `^lib/${folder}/` },
    to: { path: `^lib/${any([...layer.filter((f) => f !== folder), ...above])}/` },
  }));
});

/** Every folder of lib/ must be on a layer: a new one is placed on purpose. */
const unplaced = {
  name: "lib-layers:unplaced",
  comment: "Every lib/ folder sits on a layer of LIB_LAYERS (.dependency-cruiser.cjs) and in ARCHITECTURE.md.",
  severity: "error",
  from: { path: "^lib/", pathNot: `^lib/${any(LIB_LAYERS.flat())}/` },
  to: {},
};

const forbid = (name, from, to, comment) => ({ name, comment, severity: "error", from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle among our modules: a cycle between folders is a knot, and within one a sign to split.",
      severity: "error",
      from: { path: "^(domain|log|db|lib|components|inngest|app)/" },
      to: { circular: true },
    },
    forbid("domain-is-the-leaf", "^domain/", "^(log|db|lib|app|components|inngest|scripts)/", "domain/ is the vocabulary: it imports nothing of ours."),
    // The logger is the one floor db/ shares with lib/: it imports nothing of ours.
    forbid("db-below-lib", "^db/", "^(lib|app|components|inngest|scripts)/", "db/ imports only db/, domain/ and the logger (log/)."),
    forbid("log-is-a-floor", "^log/", "^(lib|db|domain|app|components|inngest|scripts)/", "log/ is below db/: it imports nothing else of ours."),
    forbid("lib-below-app", "^lib/", "^(app|components|inngest|scripts)/", "lib/ holds the services: it imports nothing from app/, components/, inngest/ or scripts/."),
    forbid("components-below-app", "^components/", "^(app|inngest)/", "components/ render what app/ gives them."),
    forbid("inngest-below-app", "^inngest/", "^(app|components)/", "inngest/ functions call services."),
    ...layerRules,
    unplaced,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.next-[^/]*|\\.tools|db/migrations)/" },
    // Type-only imports count: a type from above is an arrow pointing up all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".mjs", ".js", ".d.mts"] },
  },
};

// For test/architecture.test.ts, out of the options dependency-cruiser validates.
Object.defineProperty(module.exports, "LIB_LAYERS", { value: LIB_LAYERS, enumerable: false });
