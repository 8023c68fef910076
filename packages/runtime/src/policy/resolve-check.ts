import type { LookupAddress, LookupOptions } from "node:dns";
import { lookup as systemLookup } from "node:dns";
import { isLocalName } from "./host-kinds.js";
import { specialRange } from "./ip-ranges.js";

/** A `dns.lookup`-shaped resolver (`egress.lookup`), called with `all: true`. */
export type EgressLookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A name on the allowlist resolved to an address in a special range. */
export class PrivateAddressError extends Error {
  override name = "PrivateAddressError";
}

type ConnectLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * The lookup a request's connection uses: it resolves the name once and connects to what it
 * checked, so a name that resolves to a loopback, private or link-local address (a hostile
 * DNS record, DNS rebinding) is refused unless `allowPrivate`. `localhost` resolves as usual:
 * it only gets here when an entry names it.
 */
export function checkedLookup(allowPrivate: boolean, resolve: EgressLookup = systemLookup): ConnectLookup {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address, family } of allowPrivate || isLocalName(hostname) ? [] : addresses) {
        const range = specialRange(family === 6 ? new URL(`http://[${address}]`).hostname : address);
        if (range) {
          return callback(
            new PrivateAddressError(
              `${hostname} resolves to ${address}, in ${range}, which the allowlist does not reach`,
            ),
            [],
          );
        }
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new Error(`${hostname} resolved to no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
