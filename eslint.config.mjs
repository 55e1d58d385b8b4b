import next from "eslint-config-next";

/**
 * The layers (ARCHITECTURE.md): an arrow points from a layer to those it may import.
 *   app/ → components/, lib/, db/        inngest/ → lib/, db/
 *   components/ → lib/, db/              lib/ → db/        db/ → domain/statuses.ts only
 */
const forbid = (layers, why) => ({
  "no-restricted-imports": [
    "error",
    {
      patterns: layers.map((layer) => ({
        group: [`@/${layer}`, `@/${layer}/*`, `**/../${layer}`, `**/../${layer}/*`],
        message: `${why} (ARCHITECTURE.md, layers).`,
      })),
    },
  ],
});

const SOURCE = ["app/**", "components/**", "lib/**", "db/**", "inngest/**", "scripts/**", "bench/**", "*.ts", "*.mjs"];

const config = [
  ...next,
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".tools/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  { rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { files: ["db/**"], rules: forbid(["lib", "app", "components", "inngest"], "db/ is the bottom layer: it imports nothing from lib/, app/, components/ or inngest/") },
  { files: ["lib/**"], rules: forbid(["app", "inngest", "components"], "lib/ holds the services: it imports nothing from app/, components/ or inngest/") },
  { files: ["components/**"], rules: forbid(["app", "inngest"], "components/ render what app/ gives them: they import nothing from app/ or inngest/") },
  { files: ["inngest/**"], rules: forbid(["app", "components"], "inngest/ functions call services: they import nothing from app/ or components/") },
  { files: SOURCE, rules: { "max-lines": ["error", { max: 300 }] } },
];

export default config;
