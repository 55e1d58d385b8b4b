import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { parseRange } from "@/lib/config/trusted-proxies";
import { clientAddress, peerAddress } from "@/lib/http/client-address";
import { PEER_HEADER, PEER_SECRET_ENV, stampPeer } from "@/lib/http/peer.mjs";

/*
 * Whom a request comes from (lib/http/client-address.ts): the connection's peer as the production
 * server reports it, and X-Forwarded-For only past configured proxies (TRUSTED_PROXIES).
 */

const SECRET = "client-address-test-secret";
const proxies = (...entries: string[]) => entries.map((e) => parseRange(e)!);
const fromPeer = (peer: string, extra: Record<string, string> = {}) => new Headers({ [PEER_HEADER]: `${SECRET} ${peer}`, ...extra });

beforeAll(() => {
  process.env[PEER_SECRET_ENV] = SECRET;
});

describe("the connection's peer", () => {
  it("is unknown without the server's header, or with one a client forged", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.7" }), [])).toBeNull();
    expect(peerAddress(new Headers({ [PEER_HEADER]: "guessed-secret 198.51.100.7" }))).toBeNull();
    expect(peerAddress(new Headers({ [PEER_HEADER]: "198.51.100.7" }))).toBeNull();
    expect(peerAddress(fromPeer("not an address"))).toBeNull();
    const secret = process.env[PEER_SECRET_ENV];
    delete process.env[PEER_SECRET_ENV]; // `next dev`: no server of ours, nothing to trust
    try {
      expect(peerAddress(fromPeer("198.51.100.7"))).toBeNull();
    } finally {
      process.env[PEER_SECRET_ENV] = secret;
    }
  });

  it("is the client when no proxy is trusted: X-Forwarded-For, however many, changes nothing", () => {
    for (const forged of ["203.0.113.1", "203.0.113.2, 203.0.113.3", "garbage"]) {
      expect(clientAddress(fromPeer("198.51.100.7", { "x-forwarded-for": forged }), [])).toBe("198.51.100.7");
    }
  });

  it("is written canonically: IPv4-mapped IPv6 as IPv4, IPv6 compressed", () => {
    expect(clientAddress(fromPeer("::ffff:198.51.100.7"), [])).toBe("198.51.100.7");
    expect(clientAddress(fromPeer("2001:DB8:0:0:0:0:0:1"), [])).toBe("2001:db8::1");
  });

  it("is the one the production server stamps on every request, replacing a client's", async () => {
    const server = http.createServer((req, res) => {
      stampPeer(req, SECRET);
      res.end(JSON.stringify({ peer: peerAddress(new Headers(req.headers as Record<string, string>)), raw: req.headers[PEER_HEADER] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: `${SECRET} 203.0.113.9`, "x-forwarded-for": "203.0.113.9" } });
      expect(await res.json()).toEqual({ peer: "127.0.0.1", raw: `${SECRET} 127.0.0.1` });
    } finally {
      server.close();
    }
  });
});

describe("behind trusted proxies (TRUSTED_PROXIES)", () => {
  const trusted = proxies("10.0.0.0/8", "192.0.2.10", "fd00::/8");

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddress(fromPeer("198.51.100.7", { "x-forwarded-for": "203.0.113.5" }), trusted)).toBe("198.51.100.7");
  });

  it("takes the address a trusted proxy forwards for, walking right to left past every trusted hop", () => {
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "203.0.113.5" }), trusted)).toBe("203.0.113.5");
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "203.0.113.5, 192.0.2.10, 10.1.2.3" }), trusted)).toBe("203.0.113.5");
    // What a client writes before its own address is not believed: the first untrusted hop from the right is.
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "1.2.3.4, 203.0.113.5" }), trusted)).toBe("203.0.113.5");
    expect(clientAddress(fromPeer("::ffff:10.0.0.1", { "x-forwarded-for": "2001:db8::5" }), trusted)).toBe("2001:db8::5");
    expect(clientAddress(fromPeer("fd00::1", { "x-forwarded-for": "[2001:db8::5]:443" }), trusted)).toBe("2001:db8::5");
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "203.0.113.5:41234" }), trusted)).toBe("203.0.113.5");
  });

  it("stops at the last address it knows when the chain ends or a hop is not an address", () => {
    expect(clientAddress(fromPeer("10.0.0.1"), trusted)).toBe("10.0.0.1");
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "10.0.0.2" }), trusted)).toBe("10.0.0.2");
    expect(clientAddress(fromPeer("10.0.0.1", { "x-forwarded-for": "203.0.113.5, unknown" }), trusted)).toBe("10.0.0.1");
  });

  it("is read from the environment, and a wrong entry stops start-up", () => {
    const env = { NODE_ENV: "test", DATA_DIR: ":memory:" } as NodeJS.ProcessEnv;
    expect(loadConfig(env).trustedProxies).toEqual([]);
    const cfg = loadConfig({ ...env, TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.10 fd00::/8" });
    expect(cfg.trustedProxies.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual(["10.0.0.0/8", "192.0.2.10/32", "fd00::/8"]);
    for (const bad of ["10.0.0.0/33", "10", "localhost", "10.0.0.0/8/8", "10.0.0.0/x"]) {
      expect(() => loadConfig({ ...env, TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES: .*not an IP address or CIDR range/);
    }
  });
});
