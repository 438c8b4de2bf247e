/*
 * @node-rs/argon2, imported only through `import()` (passwords.ts): loading its native addon cost
 * about 7 ms of every start, and most processes serve API keys and never hash a password.
 * A module of our own is what is imported lazily: `import()` of the CommonJS package itself would
 * give the bundle a default-only namespace.
 */
export { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
