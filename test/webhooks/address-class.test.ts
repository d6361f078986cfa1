import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyAddress } from "../../src/features/webhooks/address-class.js";
import { TargetGuard, type Resolver } from "../../src/features/webhooks/target-guard.js";

test("IPv4 and IPv6 addresses are classified, including IPv4 embedded in IPv6", () => {
  const expected: Record<string, string> = {
    "8.8.8.8": "public",
    "93.184.216.34": "public",
    "2606:4700:4700::1111": "public",
    "127.0.0.1": "loopback",
    "127.255.0.9": "loopback",
    "::1": "loopback",
    "[::1]": "loopback",
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "172.31.255.255": "private",
    "172.32.0.1": "public",
    "192.168.0.10": "private",
    "fc00::1": "private",
    "fd12:3456::1": "private",
    "100.64.0.1": "cgnat",
    "100.127.255.254": "cgnat",
    "169.254.1.1": "link_local",
    "fe80::1": "link_local",
    "fe80::1%eth0": "link_local",
    "169.254.169.254": "metadata",
    "100.100.100.200": "metadata",
    "fd00:ec2::254": "metadata",
    "224.0.0.1": "multicast",
    "239.255.255.250": "multicast",
    "ff02::1": "multicast",
    "0.0.0.0": "unspecified",
    "0.1.2.3": "unspecified",
    "::": "unspecified",
    "255.255.255.255": "reserved",
    "192.0.2.1": "reserved",
    "198.18.0.1": "reserved",
    "2001:db8::1": "reserved",
    "::ffff:127.0.0.1": "loopback",
    "::ffff:7f00:1": "loopback",
    "::ffff:10.0.0.1": "private",
    "::ffff:a9fe:a9fe": "metadata",
    "::ffff:8.8.8.8": "public",
    "::127.0.0.1": "loopback",
    "64:ff9b::a00:1": "private",
    "2002:7f00:1::": "loopback",
    "2002:808:808::": "public",
    "fec0::1": "private",
    "2001:2::1": "reserved",
    "5f00::1": "reserved",
    "64:ff9b:1::a00:1": "reserved",
    "64:ff9b::808:808": "public",
    "2002:a9fe:a9fe::": "metadata",
    "::ffff:0:7f00:1": "reserved",
    "192.175.48.1": "public",
    "not-an-ip": "invalid",
    "1.2.3.4.5": "invalid",
    "::ffff:1.2.3": "invalid",
    "1.2.3": "invalid",
  };
  for (const [address, cls] of Object.entries(expected)) assert.equal(classifyAddress(address), cls, address);
});

const fakeDns =
  (answers: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

test("names are checked after resolution: every address must pass, and the checked address is the one to connect to", async () => {
  const guard = new TargetGuard(
    false,
    fakeDns({
      "hooks.example.com": ["93.184.216.34"],
      "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
      "internal.example.com": ["10.0.0.7"],
      "v6.example.com": ["::ffff:169.254.169.254"],
    }),
  );
  const ok = await guard.check("https://hooks.example.com/in");
  assert.ok(ok.ok && ok.target.address === "93.184.216.34" && ok.target.hostname === "hooks.example.com");
  for (const url of ["https://rebind.example.com/", "https://internal.example.com/", "https://v6.example.com/"]) {
    const res = await guard.check(url);
    assert.ok(!res.ok && res.code === "TARGET_REFUSED", url);
  }
  const missing = await guard.check("https://nowhere.example.com/");
  assert.ok(!missing.ok && missing.code === "DNS_FAILED");
  // A redirect's Location is checked the same way, relative to the hop that sent it.
  const redirect = await guard.check("http://10.0.0.1/x", new URL("https://hooks.example.com/"));
  assert.ok(!redirect.ok && redirect.code === "TARGET_REFUSED");
  const relative = await guard.check("/elsewhere", new URL("https://internal.example.com/"));
  assert.ok(!relative.ok && relative.code === "TARGET_REFUSED");
});

test("the development flag allows loopback and private targets over http, never link-local or metadata", async () => {
  const guard = new TargetGuard(true, fakeDns({ localhost: ["127.0.0.1", "::1"], "dev.internal": ["192.168.1.20"], "pub.example.com": ["93.184.216.34"] }));
  for (const url of ["http://127.0.0.1:8080/", "http://localhost:3000/", "http://dev.internal/", "https://10.0.0.1/", "http://[::1]:9000/"]) {
    assert.equal((await guard.check(url)).ok, true, url);
  }
  for (const url of [
    "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
    "http://pub.example.com/",
    "http://metadata.google.internal/",
  ]) {
    assert.equal((await guard.check(url)).ok, false, url);
  }
});
