import next from "eslint-config-next";

// The layers and the arrows between them are dependency-cruiser's (.dependency-cruiser.cjs, `npm run lint`).
const SOURCE = ["app/**", "components/**", "lib/**", "log/**", "db/**", "inngest/**", "scripts/**", "bench/**", "domain/**", "*.ts", "*.mjs"];

const config = [
  ...next,
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".tools/**", "db/migrations/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  { rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { files: SOURCE, rules: { "max-lines": ["error", { max: 300 }] } },
];

export default config;
