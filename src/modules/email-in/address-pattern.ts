/*
 * EMAIL_IN_ADDRESS with `{token}` (`inbox+{token}@example.com`): the address a user's token gives,
 * and the tokens found in a message's recipient addresses. Compared case-insensitively: providers
 * and senders' clients change the case of addresses, and tokens are lowercase letters and digits.
 */
const TOKEN = '([a-z0-9]{8,64})';

export interface AddressPattern {
  addressFor(token: string): string;
  /** The distinct tokens of the addresses that match the pattern, lowercased, in order. */
  tokensIn(addresses: readonly string[]): string[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function addressPattern(pattern: string): AddressPattern {
  const [before = '', after = ''] = pattern.split('{token}');
  const matcher = new RegExp(`^${escapeRegExp(before)}${TOKEN}${escapeRegExp(after)}$`, 'i');
  return {
    addressFor: (token) => `${before}${token}${after}`,
    tokensIn(addresses) {
      const tokens: string[] = [];
      for (const address of addresses) {
        const token = matcher.exec(address.trim())?.[1]?.toLowerCase();
        if (token !== undefined && !tokens.includes(token)) tokens.push(token);
      }
      return tokens;
    },
  };
}
