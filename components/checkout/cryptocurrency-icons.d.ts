/*
 * The package's React icons, one module per ticker (react/btc.js, …). Its own declarations cover
 * only the index, which re-exports all 2 000+ icons; importing each icon's module keeps the
 * build to the few the checkout draws, and this gives those modules their type.
 */
declare module "@bitgo-forks/cryptocurrency-icons/react/*" {
  import type { FC, SVGProps } from "react";
  const Icon: FC<SVGProps<SVGSVGElement> & { prefixId?: string }>;
  export default Icon;
}
