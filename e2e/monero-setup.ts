import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { moneroRpc, moneroTip } from "@/lib/chains/monero/rpc";
import { freePort } from "../test/chains/nodes/free-port";
import { merchantKeys, mine, startMonerod, startWalletRpc } from "../test/chains/nodes/monero";
import { e2eMoneroNodes, MONERO_MERCHANT_ENV, MONERO_START_ERROR_ENV } from "./monero-node";

/**
 * Starts the live Monero flow's nodes on the ports e2e/monero-node.ts chose: a regtest monerod,
 * the wallet-rpc the server makes its view-only wallets in, and one holding a merchant's full
 * wallet (its keys handed to the spec) and then the customer's spending wallet, mined 100 blocks
 * (test/chains/nodes/monero.ts says why 100). A failure does not stop the run: the error is
 * handed to the workers and the live Monero spec fails with it. Returns the teardown.
 */
export async function startE2eMonero(): Promise<(() => Promise<void>) | undefined> {
  const nodes = e2eMoneroNodes();
  if (!nodes) return undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "e2e-monerod-"));
  const daemonProcess = startMonerod(dataDir, nodes.daemonPort, await freePort());
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    await Promise.all(stops.map((s) => s().catch(() => undefined)));
    daemonProcess.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const daemon = moneroRpc(nodes.daemonUrl, { timeoutMs: 300_000 });
    const deadline = Date.now() + 90_000;
    while (!(await moneroTip(daemon).then(() => true, () => false))) {
      if (Date.now() > deadline) throw new Error("monerod did not answer within 90 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    const [service, spender] = await Promise.all([startWalletRpc(nodes.daemonUrl, { port: nodes.walletPort }), startWalletRpc(nodes.daemonUrl, { port: nodes.spenderPort })]);
    stops.push(service.stop, spender.stop);
    process.env[MONERO_MERCHANT_ENV] = JSON.stringify(await merchantKeys(spender, "merchant"));
    await spender.rpc.call("create_wallet", { filename: "spender", password: "", language: "English" }, z.unknown());
    const { address } = await spender.rpc.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
    await mine(daemon, 100, address);
    return teardown;
  } catch (err) {
    await teardown();
    process.env[MONERO_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] the Monero nodes did not start: ${(err as Error).message}`);
    return undefined;
  }
}
